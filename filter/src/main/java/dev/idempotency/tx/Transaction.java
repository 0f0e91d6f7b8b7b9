package dev.idempotency.tx;

import java.time.Duration;
import java.util.Optional;

/**
 * The transaction an entry point owns for one request: JTA's in a container ({@link JtaTransaction}), or a
 * local JDBC one outside it ({@link LocalTransactions}, for the store check and the core's tests). Every call
 * acts on the calling thread's transaction.
 */
public interface Transaction {
    /**
     * @param timeout the transaction's timeout, or empty for the default
     * @throws IllegalStateException if a transaction is already active on this thread
     */
    void begin(Optional<Duration> timeout);

    /** Whether the transaction can still commit: nothing marked it rollback-only, and it did not time out. */
    boolean isCommittable();

    /** @throws CommitFailedException if the commit failed; the transaction is then over and nothing persisted */
    void commit();

    /** Rolls back if a transaction is still associated with this thread; never throws. */
    void rollback();
}
