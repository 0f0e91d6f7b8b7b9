package dev.idempotency.foreign.events;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("api")
public class EventApplication extends Application {}
