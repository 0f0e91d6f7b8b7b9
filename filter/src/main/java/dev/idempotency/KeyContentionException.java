package dev.idempotency;

/**
 * A claim found the key taken, but the record vanished before it could be read, several times in a
 * row: a purge or rolled-back competitors keep racing this request. Retrying later with the same key is
 * safe.
 */
public class KeyContentionException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public KeyContentionException(String message) {
        super(message);
    }
}
