package dev.idempotency.foreign.root;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

/** Every path of the context belongs to the resources: the notes live at the context root itself. */
@ApplicationPath("")
public class RootApplication extends Application {}
