package dev.idempotency.sample.view;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The CDI application's JAX-RS application. */
@ApplicationPath("api")
public class ViewApplication extends Application {}
