package dev.idempotency.sample.keyedcaller;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import java.util.concurrent.atomic.AtomicInteger;

/** Counts the requests a Rest Client sends, so that the caller can tell its retries. */
public class AttemptCounter implements ClientRequestFilter {
    static final AtomicInteger SENT = new AtomicInteger();

    @Override
    public void filter(ClientRequestContext request) {
        SENT.incrementAndGet();
    }
}
