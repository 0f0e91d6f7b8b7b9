package dev.idempotency.sample.keyedcaller;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("api")
public class KeyedCallerApplication extends Application {}
