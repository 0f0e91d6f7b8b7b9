package dev.idempotency;

import dev.idempotency.core.CurrentExecution;
import dev.idempotency.core.DerivedKey;
import java.util.Optional;

/**
 * The application's view of the idempotency record it runs under: which record (scope, operation contract,
 * key), whether this is its first execution, and keys derived from it for the calls the application makes to
 * other services.
 *
 * <p>The filter shows it only while the application runs for a keyed request to a covered operation (rollout
 * mode {@code OPTIONAL} or {@code REQUIRED}), inside the record's transaction:
 *
 * <ul>
 *   <li>as the request attribute {@value #REQUEST_ATTRIBUTE};
 *   <li>on the request's thread, through {@link #current()};
 *   <li>to CDI applications that add the {@code idempotency-cdi} jar, as an injectable request-scoped bean.
 * </ul>
 *
 * <p>Keyless requests, uncovered operations, replays (which never run the application), new keys under {@code
 * DRAIN} (which run unrecorded) and code on other threads see none. An interface so that CDI can proxy it as a
 * request-scoped bean, and so that applications can fake it in their own unit tests.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface IdempotentExecution {
    /** The request attribute that holds the execution while the application runs. */
    String REQUEST_ATTRIBUTE = "dev.idempotency.IdempotentExecution";

    /**
     * The scope the key belongs to: the authenticated caller's name, or for a caller named by the {@code scope-header}
     * the digest of its value ({@code header:sha256:...}, or {@code header:hmac-sha256:...} with a {@code
     * scope-header-key}), never the value itself.
     */
    String scope();

    /** The operation contract, such as {@code debit:v1}. */
    String operation();

    /** The client's key, as the filter read it from the request. */
    String key();

    /**
     * Whether no earlier execution with this key has been kept. Always {@code true} while the application runs,
     * because a retry of a kept execution is replayed and never runs the application. It does not mean that no
     * earlier attempt ran: an attempt that failed, answered a status that is not stored, or whose commit failed
     * was rolled back and left the key free, and so did the winner a waiting duplicate saw roll back. Their
     * database work is gone, but calls they made to other services happened; make those calls with {@link
     * #deriveKey(String)} so that the service can recognize the repetition.
     */
    boolean isFirstExecution();

    /**
     * A key for a call this execution makes to another service, such as a payment provider's {@code
     * Idempotency-Key}: the same on every retry of this request (same scope, operation, key and label), different
     * for any other scope, operation, key or label, and not reversible to the client's key (a SHA-256 digest of
     * all four, in base64url without padding: 43 characters of {@code A-Z a-z 0-9 - _}, a valid key for this
     * filter too).
     *
     * <p>Give every call of one execution its own label (such as {@code "charge"} and {@code "receipt-mail"}):
     * two calls with the same label get the same key, and the service would take the second for a retry of the
     * first.
     *
     * @param label what the call is for within this execution; stable across retries
     * @throws IllegalArgumentException if the label is null or blank
     */
    default String deriveKey(String label) {
        return DerivedKey.of(scope(), operation(), key(), label);
    }

    /**
     * The execution the application runs under on this thread, or empty outside one (and on any other thread
     * than the request's, such as an executor's or an asynchronous client's).
     */
    static Optional<IdempotentExecution> current() {
        return CurrentExecution.get();
    }
}
