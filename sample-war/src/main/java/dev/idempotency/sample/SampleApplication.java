package dev.idempotency.sample;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The sample's REST API lives under {@code /sample/api}. */
@ApplicationPath("/api")
public class SampleApplication extends Application {}
