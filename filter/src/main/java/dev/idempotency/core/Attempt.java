package dev.idempotency.core;

import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.store.RequestResultId;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * One request to execute at most once, as every entry point hands it to the {@link IdempotentExecutor}: its
 * identity, its canonical form, how long its record is kept, and whether its caller may be shown a stored
 * outcome.
 *
 * @param id the record's identity: scope, operation contract, key
 * @param request the canonical request, compared with the stored one on a retry
 * @param retention how long the record is kept
 * @param mayReplay whether the caller may be shown a stored outcome now (a role that can be revoked within the
 *     retention); asked only when a record exists
 * @param waitsForDuplicate whether a duplicate of an attempt still in flight waits for its outcome (within the
 *     lock timeout) or is refused at once
 * @param lateRetryWindow how long after the retention a retry is still refused instead of run again; zero for
 *     none (the record goes at the end of its retention, and a later retry runs as a new request)
 */
public record Attempt(
        RequestResultId id,
        CanonicalRequest request,
        Duration retention,
        BooleanSupplier mayReplay,
        boolean waitsForDuplicate,
        Duration lateRetryWindow) {
    /** A plain attempt: a duplicate waits, and a retry after the retention runs again. */
    public Attempt(RequestResultId id, CanonicalRequest request, Duration retention, BooleanSupplier mayReplay) {
        this(id, request, retention, mayReplay, true, Duration.ZERO);
    }

    /** How long the record is kept: its retention, and then the window in which late retries are refused. */
    Duration keptFor() {
        return retention.plus(lateRetryWindow);
    }
}
