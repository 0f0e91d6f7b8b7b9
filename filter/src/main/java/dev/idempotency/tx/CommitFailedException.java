package dev.idempotency.tx;

import dev.idempotency.IdempotencyException;

/**
 * The transaction that held the application's effect and its record did not commit. Nothing of it is
 * visible, so a retry with the same key executes again.
 */
public class CommitFailedException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public CommitFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
