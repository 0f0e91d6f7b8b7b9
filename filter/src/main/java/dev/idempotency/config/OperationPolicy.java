package dev.idempotency.config;

import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How the records of one operation contract are kept and answered, resolved once from its entries in {@code
 * operations} and the settings when the configuration is read ({@link IdempotencyConfig#policyOf}), and read as it
 * is by the entry point and the core's attempt. Records are keyed by contract, so a contract has one policy: entries
 * of one contract that would resolve to different policies are refused at start-up.
 *
 * <p>Immutable and thread-safe.
 *
 * @param contract the operation contract, {@code name:version}
 * @param retention how long a record is kept and replayed: the entry's {@code retention=}, or the {@code retention}
 *     setting
 * @param lateRetryWindow how long after the retention a retry is still refused instead of run again: the {@code
 *     late-retry-window} setting for {@code after-expiry=refuse}, zero otherwise
 * @param waitsForDuplicate whether a duplicate of an attempt in flight waits for its outcome ({@code
 *     concurrent=wait}) or is refused at once ({@code concurrent=reject})
 * @param replayRoles the roles of which a caller must hold one, at the time of a retry, to be shown a stored
 *     outcome; empty for no such check
 * @param keyField the form field a browser's key comes in when a request carries no key header: the entry's {@code
 *     key-field=}, or the {@code key-field} setting; empty when keys come in the header only
 */
public record OperationPolicy(
        String contract,
        Duration retention,
        Duration lateRetryWindow,
        boolean waitsForDuplicate,
        Set<String> replayRoles,
        Optional<String> keyField) {
    public OperationPolicy {
        replayRoles = Collections.unmodifiableSet(new HashSet<>(replayRoles));
    }

    /**
     * Whether a caller may be shown a stored outcome now: a role can be revoked within the retention, and checks
     * inside the application do not run on a replay.
     *
     * @param callerIsInRole whether the caller holds a role, asked at the time of the retry
     */
    public boolean mayReplayTo(Predicate<String> callerIsInRole) {
        return replayRoles.isEmpty() || replayRoles.stream().anyMatch(callerIsInRole);
    }
}
