package dev.idempotency.foreign.ledger;

import jakarta.ws.rs.ApplicationPath;
import jakarta.ws.rs.core.Application;

@ApplicationPath("api")
public class LedgerApplication extends Application {}
