package dev.idempotency.metrics;

import dev.idempotency.servlet.Problem;

/**
 * What happened to one request to a covered operation: exactly one value per request, computed by the
 * request path and handed to every {@link OutcomeListener}.
 */
public enum Outcome {
    /** The application ran, its final response was stored, and the transaction committed. */
    EXECUTED,
    /** A stored response was sent again; the application did not run. */
    REPLAYED,
    /** The key was already used for a different request: 422. */
    MISMATCH,
    /** Another request held the key past {@code lock-timeout}: 409. */
    IN_PROGRESS,
    /** The application ran and failed (an error status, an exception, rollback-only); nothing was kept. */
    ROLLED_BACK,
    /**
     * The filter could not claim, store, commit or open a record (database, transaction conflict, commit
     * failure: 503; a stored response that cannot be decrypted: 500).
     */
    FAILED,
    /** A request without a key ran unprotected (rollout mode {@code OPTIONAL}). */
    KEYLESS_PASSED,
    /** A request without a key was refused (rollout mode {@code REQUIRED}): 400. */
    KEYLESS_REFUSED,
    /** A keyed request with no stored record ran unprotected (rollout mode {@code DRAIN}). */
    DRAIN_PASSED,
    /**
     * Refused before anything ran: bad input (a malformed key, an oversized or incomplete body, no caller to
     * scope by), or a retry that came after the retention of an operation that refuses late retries: 410.
     */
    REJECTED;

    /** The outcome of a request the filter answered with {@code problem}. */
    public static Outcome of(Problem problem) {
        return switch (problem) {
            case KEY_REQUIRED -> KEYLESS_REFUSED;
            case KEY_REUSED -> MISMATCH;
            case REQUEST_IN_PROGRESS -> IN_PROGRESS;
            case APPLICATION_FAILED, TRANSACTION_SELF_MANAGED, RESPONSE_TOO_LARGE, ASYNCHRONOUS_RESPONSE -> ROLLED_BACK;
            case TRANSACTION_CONFLICT, STORE_UNAVAILABLE, COMMIT_FAILED, RECORD_UNREADABLE -> FAILED;
            case KEY_INVALID,
                    AUTHENTICATION_REQUIRED,
                    REQUEST_TOO_LARGE,
                    REQUEST_INCOMPLETE,
                    ROLLOUT_MODE_INVALID,
                    SCOPE_REQUIRED,
                    REPLAY_FORBIDDEN,
                    KEY_EXPIRED,
                    OPERATION_UNKNOWN,
                    CSRF_TOKEN_INVALID -> REJECTED;
        };
    }
}
