package dev.idempotency.sample.calls;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS application of both WARs, each deploying only its own resource. */
@ApplicationPath("api")
public class CallsApplication extends Application {}
