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

    /** Work done in a transaction of its own. */
    @FunctionalInterface
    interface Work<T, E extends Exception> {
        T run() throws E;
    }

    /**
     * Runs {@code work} in a transaction of its own, with the default timeout: committed if the work returns,
     * rolled back if it throws. For the filter's housekeeping (purge, counters, rollout switches, erasure);
     * requests have their own boundary, where the claim may be retried.
     *
     * @throws E what the work threw, after the rollback
     * @throws CommitFailedException if the commit failed
     * @throws IllegalStateException if a transaction is already active on this thread
     */
    default <T, E extends Exception> T inTransaction(Work<T, E> work) throws E {
        begin(Optional.empty());
        try {
            T result = work.run();
            commit();
            return result;
        } finally {
            rollback();
        }
    }
}
