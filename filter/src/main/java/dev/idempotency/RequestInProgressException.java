package dev.idempotency;

/**
 * The key is held by another request that is still running past the configured {@code lock-timeout}, or
 * it kept changing hands while this request tried to claim it. Nothing was executed; retrying later with
 * the same key is safe.
 */
public class RequestInProgressException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public RequestInProgressException(String message) {
        super(message);
    }
}
