package dev.idempotency.sample.openapi;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** The JAX-RS application whose OpenAPI document {@code OpenApiIT} reads; its path is part of every OpenAPI path. */
@ApplicationPath("api")
public class OrdersApplication extends Application {}
