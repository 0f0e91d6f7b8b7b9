package dev.idempotency.servlet;

import dev.idempotency.metrics.Outcome;

/**
 * Every RFC 9457 problem the filter can answer with. The {@code type} URIs are stable API: clients may
 * branch on them. {@code docs/errors.md} lists each with what the client should do.
 */
public enum Problem {
    KEY_INVALID(400, "idempotency-key-invalid", "Invalid idempotency key"),
    KEY_REQUIRED(400, "idempotency-key-required", "Idempotency key required"),
    ROLLOUT_MODE_INVALID(400, "rollout-mode-invalid", "Invalid rollout mode"),
    SCOPE_REQUIRED(400, "scope-required", "Scope required"),
    AUTHENTICATION_REQUIRED(401, "authentication-required", "Authentication required"),
    REPLAY_FORBIDDEN(403, "replay-forbidden", "Replay not allowed"),
    CSRF_TOKEN_INVALID(403, "csrf-token-invalid", "Missing or invalid CSRF token"),
    OPERATION_UNKNOWN(404, "operation-unknown", "Unknown operation"),
    REQUEST_IN_PROGRESS(409, "request-in-progress", "Request with this key is in progress"),
    REQUEST_INCOMPLETE(400, "request-body-incomplete", "Request body incomplete"),
    REQUEST_TOO_LARGE(413, "request-too-large", "Request body too large"),
    KEY_EXPIRED(410, "idempotency-key-expired", "Idempotency key expired"),
    KEY_REUSED(422, "idempotency-key-reused", "Idempotency key reused with a different request"),
    APPLICATION_FAILED(500, "application-failed", "The request failed"),
    TRANSACTION_SELF_MANAGED(500, "application-manages-transactions", "The operation manages its own transactions"),
    RESPONSE_TOO_LARGE(500, "response-too-large", "Response too large to store"),
    ASYNCHRONOUS_RESPONSE(500, "asynchronous-response", "Asynchronous response cannot be stored"),
    RECORD_UNREADABLE(500, "stored-response-unreadable", "Stored response cannot be decrypted"),
    TRANSACTION_CONFLICT(503, "transaction-conflict", "Transaction conflict"),
    STORE_UNAVAILABLE(503, "store-unavailable", "Idempotency store unavailable"),
    COMMIT_FAILED(503, "commit-failed", "The request could not be committed");

    /** Problem types are URNs: stable names that promise no web page behind them. */
    public static final String TYPE_PREFIX = "urn:dev.idempotency:problem:";

    private final int status;
    private final String slug;
    private final String title;

    Problem(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String type() {
        return TYPE_PREFIX + slug;
    }

    public String title() {
        return title;
    }

    /** What a request the filter answered with this problem counts as. */
    public Outcome outcome() {
        return switch (this) {
            case KEY_REQUIRED -> Outcome.KEYLESS_REFUSED;
            case KEY_REUSED -> Outcome.MISMATCH;
            case REQUEST_IN_PROGRESS -> Outcome.IN_PROGRESS;
            case APPLICATION_FAILED, TRANSACTION_SELF_MANAGED, RESPONSE_TOO_LARGE, ASYNCHRONOUS_RESPONSE -> Outcome
                    .ROLLED_BACK;
            case TRANSACTION_CONFLICT, STORE_UNAVAILABLE, COMMIT_FAILED, RECORD_UNREADABLE -> Outcome.FAILED;
            case KEY_INVALID,
                    AUTHENTICATION_REQUIRED,
                    REQUEST_TOO_LARGE,
                    REQUEST_INCOMPLETE,
                    ROLLOUT_MODE_INVALID,
                    SCOPE_REQUIRED,
                    REPLAY_FORBIDDEN,
                    KEY_EXPIRED,
                    OPERATION_UNKNOWN,
                    CSRF_TOKEN_INVALID -> Outcome.REJECTED;
        };
    }
}
