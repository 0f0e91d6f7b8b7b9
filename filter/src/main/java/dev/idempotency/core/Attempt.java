package dev.idempotency.core;

import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.config.OperationPolicy;
import dev.idempotency.store.RequestResultId;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One request to execute at most once, as every entry point hands it to the {@link IdempotentExecutor}: its
 * identity, how to make its canonical form, how long its record is kept, and whether its caller may be shown a
 * stored outcome.
 *
 * <p>It carries how to make the canonical request rather than the request itself, because the canonical text can
 * be as long as the body (a JSON body's is) and is needed only to claim the key and to compare a stored record:
 * the executor makes it for that and lets it go before the work runs, so the text is never held while the
 * application holds the body and writes its response.
 *
 * @param id the record's identity: scope, operation contract, key
 * @param request makes the canonical request, which is stored with the record and compared with the stored one
 *     on a retry; asked once per claim (again only if a claim is retried in a new transaction) and once per
 *     look-up that finds a record, it must give the same request every time
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
        Supplier<CanonicalRequest> request,
        Duration retention,
        BooleanSupplier mayReplay,
        boolean waitsForDuplicate,
        Duration lateRetryWindow) {
    /**
     * An attempt at an operation under its resolved policy, named by its identity's other parts, as an entry point
     * that knows no store has them.
     *
     * @param callerIsInRole whether the caller holds a role, asked at the time of a retry for the policy's {@code
     *     replay-roles}
     */
    public Attempt(
            OperationPolicy policy,
            String scope,
            String key,
            Supplier<CanonicalRequest> request,
            Predicate<String> callerIsInRole) {
        this(
                new RequestResultId(scope, policy.contract(), key),
                request,
                policy.retention(),
                () -> policy.mayReplayTo(callerIsInRole),
                policy.waitsForDuplicate(),
                policy.lateRetryWindow());
    }

    /** A plain attempt: a duplicate waits, and a retry after the retention runs again. */
    public Attempt(
            RequestResultId id, Supplier<CanonicalRequest> request, Duration retention, BooleanSupplier mayReplay) {
        this(id, request, retention, mayReplay, true, Duration.ZERO);
    }

    /** How long the record is kept: its retention, and then the window in which late retries are refused. */
    Duration keptFor() {
        return retention.plus(lateRetryWindow);
    }
}
