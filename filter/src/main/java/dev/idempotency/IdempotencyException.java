package dev.idempotency;

/**
 * The root of every exception this library throws, so callers can catch one type.
 *
 * <p>Each condition has its own subclass; see {@link ConfigurationException}.
 */
public class IdempotencyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IdempotencyException(String message) {
        super(message);
    }

    public IdempotencyException(String message, Throwable cause) {
        super(message, cause);
    }
}
