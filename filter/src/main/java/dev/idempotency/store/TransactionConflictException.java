package dev.idempotency.store;

import dev.idempotency.IdempotencyException;

/**
 * The database aborted the transaction to keep a stronger isolation level (a serialization failure or a
 * deadlock, SQLSTATE class 40). Nothing of the transaction persisted; the same key may be retried.
 */
public class TransactionConflictException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public TransactionConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
