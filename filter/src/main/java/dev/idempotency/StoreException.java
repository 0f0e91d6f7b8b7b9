package dev.idempotency;

/**
 * The database behind the idempotency tables could not be read or written (no connection, a missing table,
 * a refused statement). The transaction must roll back; nothing of the request was kept.
 */
public class StoreException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
