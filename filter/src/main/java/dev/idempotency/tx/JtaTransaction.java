package dev.idempotency.tx;

import jakarta.transaction.NotSupportedException;
import jakarta.transaction.Status;
import jakarta.transaction.SystemException;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The JTA transaction the filter owns for one request: it begins before the claim and ends after the
 * response is captured, so the record and the application's work commit together or not at all.
 *
 * <p>Thread-safe in the way {@link UserTransaction} is: every call acts on the calling thread's
 * transaction.
 */
public final class JtaTransaction implements Transaction {
    private static final Logger LOG = Logger.getLogger(JtaTransaction.class.getName());

    private final UserTransaction userTransaction;

    public JtaTransaction(UserTransaction userTransaction) {
        this.userTransaction = userTransaction;
    }

    /**
     * @param timeout the transaction's timeout, or empty for the container's default
     * @throws IllegalStateException if a transaction is already active on this thread: something before
     *     the filter opened it, so the filter cannot own the boundary
     */
    @Override
    public void begin(Optional<Duration> timeout) {
        try {
            if (timeout.isPresent()) {
                userTransaction.setTransactionTimeout((int) timeout.get().getSeconds());
                try {
                    userTransaction.begin();
                } finally {
                    // The timeout sticks to the thread; pooled threads must get the default back.
                    userTransaction.setTransactionTimeout(0);
                }
            } else {
                userTransaction.begin();
            }
        } catch (NotSupportedException e) {
            throw new IllegalStateException(
                    "a JTA transaction is already active when the idempotency filter"
                            + " runs; map the filter before anything that begins a transaction",
                    e);
        } catch (SystemException e) {
            throw new IllegalStateException("the transaction manager could not begin a transaction", e);
        }
    }

    /**
     * Whether the transaction can still commit. The application may have marked it rollback-only, or the
     * transaction manager may have rolled it back on timeout, while still answering 200.
     */
    @Override
    public boolean isCommittable() {
        return status() == Status.STATUS_ACTIVE;
    }

    /** @throws CommitFailedException if the commit failed; the transaction is then over and nothing of it persisted */
    @Override
    public void commit() {
        try {
            userTransaction.commit();
        } catch (Exception e) {
            // RollbackException is the common case (a deferred constraint, a timeout). A heuristic outcome
            // is also reported as a failure: the record shares the transaction, so a retry either replays
            // (it did commit) or executes again (it did not), and both are correct.
            rollback();
            throw new CommitFailedException("the transaction did not commit: " + e, e);
        }
    }

    /** Rolls back if a transaction is still associated with this thread; never throws. */
    @Override
    public void rollback() {
        try {
            if (userTransaction.getStatus() != Status.STATUS_NO_TRANSACTION) {
                userTransaction.rollback();
            }
        } catch (Exception e) {
            LOG.log(Level.WARNING, "rollback failed; the transaction manager will end the transaction", e);
        }
    }

    private int status() {
        try {
            return userTransaction.getStatus();
        } catch (SystemException e) {
            return Status.STATUS_UNKNOWN;
        }
    }
}
