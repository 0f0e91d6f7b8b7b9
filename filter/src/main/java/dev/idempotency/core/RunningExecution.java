package dev.idempotency.core;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.store.RequestResultId;

/**
 * The execution of a claimed attempt, as the application sees it while it runs.
 *
 * @param id the record the attempt claimed
 */
public record RunningExecution(RequestResultId id) implements IdempotentExecution {
    @Override
    public String scope() {
        return id.scope();
    }

    @Override
    public String operation() {
        return id.operation();
    }

    @Override
    public String key() {
        return id.requestKey();
    }

    /** The application runs only for a claimed key, and a claim exists only when no execution was kept. */
    @Override
    public boolean isFirstExecution() {
        return true;
    }
}
