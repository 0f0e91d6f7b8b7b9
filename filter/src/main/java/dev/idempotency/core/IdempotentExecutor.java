package dev.idempotency.core;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.store.ClaimOutcome;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.store.TransactionConflictException;
import dev.idempotency.tx.Transaction;
import dev.idempotency.tx.TransactionControlAttempt;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The servlet-free core every entry point runs an {@link Attempt} through: in one transaction, claim the key,
 * then replay or refuse an existing record, or run the work and store its outcome with its effects, and commit.
 * It knows no HTTP and no SQL: the entry point adapts its world to an attempt and a piece of work, and turns
 * the {@link Decision} into its answer; the store holds the records. It reads every failure of the work, so the
 * entry point reads none: a database conflict, or the container's refusal of a transaction the work ran itself.
 *
 * <p>A duplicate of an attempt in flight on this node waits in memory first ({@link KeysInFlight}), then on the
 * database's key; the whole wait stays within the lock timeout. A duplicate that must not wait is refused in memory
 * only while an attempt on this node executes; otherwise the database's claim decides, so a retry of a finished
 * request is replayed however many retries arrive with it, on any node. A claim the database aborts to protect its
 * isolation level is retried in a new transaction, since nothing has run yet.
 *
 * <p>The canonical request is made where the key is claimed, and is let go before the work runs: nothing here
 * needs it once the key is claimed, and it can be as long as the body the work is reading.
 *
 * <p>Thread-safe: each attempt's state lives on its own stack; what it shares (keys in flight, the operations
 * already reported) sits in concurrent sets.
 */
public final class IdempotentExecutor {
    /** A claim that keeps hitting serialization failures gives up after this many transactions. */
    static final int MAX_CLAIM_TRANSACTIONS = 3;

    private static final Duration MIN_CLAIM_WAIT = Duration.ofMillis(1);
    private static final Logger LOG = Logger.getLogger(IdempotentExecutor.class.getName());

    /** The work an attempt protects, run at most once per key, inside the attempt's transaction. */
    @FunctionalInterface
    public interface Work<R, E extends Exception> {
        Ran<R> run() throws E;
    }

    /**
     * What the work returned.
     *
     * @param result the entry point's own view of what ran, handed back in the decision
     * @param toStore the outcome to keep and replay, or empty if it is not one to keep (a failure)
     */
    public record Ran<R>(R result, Optional<StoredResponse> toStore) {
        /** A final outcome: kept with the work's effects and replayed to every retry within the retention. */
        public static <R> Ran<R> toKeep(
                R result, int status, Map<String, List<String>> headers, byte[] body, String writerCharset) {
            return new Ran<>(result, Optional.of(new StoredResponse(status, headers, body, writerCharset)));
        }

        /** An outcome not to keep (a failure): its effects are rolled back and the key stays free. */
        public static <R> Ran<R> notToKeep(R result) {
            return new Ran<>(result, Optional.empty());
        }
    }

    private final Transaction transaction;
    private final RequestResultStore store;
    private final RecordEncryption encryption;
    private final KeysInFlight keysInFlight = new KeysInFlight();
    private final Set<String> operationsLoggedAsSelfManaged = ConcurrentHashMap.newKeySet();
    private final Duration lockTimeout;
    private final Optional<Duration> transactionTimeout;
    private final OutcomeListener listener;

    /**
     * @param lockTimeout how long a duplicate waits for the attempt that holds its key
     * @param transactionTimeout the timeout of each attempt's transaction, or empty for the default
     * @param listener told how long each duplicate waited
     */
    public IdempotentExecutor(
            Transaction transaction,
            RequestResultStore store,
            RecordEncryption encryption,
            Duration lockTimeout,
            Optional<Duration> transactionTimeout,
            OutcomeListener listener) {
        this.transaction = transaction;
        this.store = store;
        this.encryption = encryption;
        this.lockTimeout = lockTimeout;
        this.transactionTimeout = transactionTimeout;
        this.listener = listener;
    }

    /**
     * Runs {@code work} at most once for the attempt's key, or answers with the record an earlier attempt
     * committed. The transaction is rolled back whatever happened, unless it committed.
     *
     * @return {@link Decision.Failed} with {@link Decision.Failure#WORK_CONFLICT} if what the work threw was caused
     *     by the database aborting the transaction to protect its isolation level (read by the store); {@link
     *     Decision.TransactionControlRefused} if it was caused by the container refusing the work's own commit,
     *     rollback or begin
     * @throws E what the work threw otherwise, after the rollback; the key is then free
     */
    public <R, E extends Exception> Decision<R> execute(Attempt attempt, Work<R, E> work) throws E {
        long started = System.nanoTime();
        // An operation that refuses duplicates in flight gives them no time: in memory, nor at the database.
        long deadline = started + (attempt.waitsForDuplicate() ? lockTimeout.toNanos() : 0);
        boolean entered;
        if (attempt.waitsForDuplicate()) {
            entered = keysInFlight.enter(attempt.id(), deadline);
            if (!entered) {
                return inProgress(attempt.id(), started);
            }
        } else {
            // Refused in memory only beside an execution; beside another retry, the database tells whether a
            // committed record answers it or an uncommitted execution holds the key.
            KeysInFlight.Admission admission = keysInFlight.enterWithoutWaiting(attempt.id());
            if (admission == KeysInFlight.Admission.REFUSED) {
                return inProgress(attempt.id(), started);
            }
            entered = admission == KeysInFlight.Admission.ENTERED;
        }
        try {
            return claimAndRun(attempt, work, started, deadline, entered);
        } finally {
            if (entered) {
                keysInFlight.leave(attempt.id());
            }
        }
    }

    /**
     * For DRAIN: a stored record is still honoured (replay or mismatch), because its client is entitled to it;
     * without one, {@link Decision.NotRecorded}, and nothing is claimed.
     */
    public <R> Decision<R> lookUp(Attempt attempt) {
        Optional<StoredRecord> stored;
        transaction.begin(transactionTimeout);
        try {
            stored = store.find(attempt.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reading " + attempt.id() + " failed", e);
            return new Decision.Failed<>(Decision.Failure.STORE_UNAVAILABLE);
        } finally {
            transaction.rollback();
        }
        return stored.<Decision<R>>map(
                        record -> answerWith(record, attempt, attempt.request().get()))
                .orElseGet(Decision.NotRecorded::new);
    }

    private <R, E extends Exception> Decision<R> claimAndRun(
            Attempt attempt, Work<R, E> work, long started, long deadline, boolean entered) throws E {
        // The transaction's one boundary: it begins here, commits only after the outcome is stored, and is
        // rolled back in finally whatever else happened.
        for (int claims = 1; ; claims++) {
            transaction.begin(transactionTimeout);
            try {
                Optional<Decision<R>> answered;
                try {
                    answered = claimOrAnswer(attempt, started, deadline);
                } catch (TransactionConflictException e) {
                    // Nothing has run yet, so a new transaction with the same key is safe (the chapter's rule for
                    // isolation levels above Read Committed); it will usually find the winner's record.
                    if (claims == MAX_CLAIM_TRANSACTIONS) {
                        return new Decision.Failed<>(Decision.Failure.TRANSACTION_CONFLICT);
                    }
                    continue;
                }
                if (answered.isPresent()) {
                    return answered.get();
                }
                if (entered) {
                    keysInFlight.claimed(attempt.id());
                }
                Ran<R> ran;
                try {
                    ran = work.run();
                } catch (Exception e) {
                    Optional<Decision<R>> read = failureOf(attempt.id().operation(), e);
                    if (read.isPresent()) {
                        return read.get();
                    }
                    throw e;
                }
                if (!ran.toStore().isPresent()) {
                    // A failure or a refusal that is not a final outcome: undo its effects, keep the key free.
                    return new Decision.RolledBack<>(ran.result());
                }
                if (!transaction.isCommittable()) {
                    return new Decision.Doomed<>(ran.result());
                }
                return storeAndCommit(attempt, ran);
            } finally {
                // A no-op after the commit. Otherwise it undoes the claim and anything the work did, and a
                // replay's read-only transaction gives its connection back before the answer is sent.
                transaction.rollback();
            }
        }
    }

    /**
     * Claims the attempt's key, or answers without running the work: with the record that holds the key, or with
     * why the claim failed. Empty when this attempt claimed the key. The canonical request is made here and lives
     * in this frame only, so it is gone when the work runs.
     *
     * @throws TransactionConflictException if the database aborted the claim to protect its isolation level
     */
    private <R> Optional<Decision<R>> claimOrAnswer(Attempt attempt, long started, long deadline) {
        CanonicalRequest request = attempt.request().get();
        ClaimOutcome claimed;
        try {
            claimed = claim(attempt, request, started, deadline);
        } catch (RequestInProgressException e) {
            return Optional.of(inProgress(attempt.id(), started));
        } catch (TransactionConflictException e) {
            throw e; // not a failure of the store: the caller claims again in a new transaction
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "claiming " + attempt.id() + " failed", e);
            return Optional.of(new Decision.Failed<>(Decision.Failure.STORE_UNAVAILABLE));
        }
        if (claimed instanceof ClaimOutcome.Existing existing) {
            return Optional.of(answerWith(existing.record(), attempt, request));
        }
        return Optional.empty();
    }

    private ClaimOutcome claim(Attempt attempt, CanonicalRequest request, long started, long deadline) {
        // At least a millisecond: the attempt ahead on this node has ended, so its record is no longer locked.
        // Zero, for an operation that refuses duplicates in flight, asks the store not to wait at all.
        Duration maxWait = attempt.waitsForDuplicate()
                ? Duration.ofNanos(Math.max(deadline - System.nanoTime(), MIN_CLAIM_WAIT.toNanos()))
                : Duration.ZERO;
        ClaimOutcome outcome = store.claim(
                attempt.id(), encryption.storedRequest(attempt.id(), request.text()), attempt.keptFor(), maxWait);
        if (outcome instanceof ClaimOutcome.Existing) {
            listener.waitedForDuplicate(attempt.id().operation(), Duration.ofNanos(System.nanoTime() - started));
        }
        return outcome;
    }

    /**
     * What a failure of the work means, when it is more than the work's own failure: the database aborted the
     * transaction to protect its isolation level (read by the store: the entry point knows no SQL), or the work
     * tried to run its own transaction inside the attempt's. Code that commits, rolls back or begins transactions
     * itself cannot join the attempt's transaction, so every attempt at it fails the same way; the operators are
     * told once, precisely.
     */
    private <R> Optional<Decision<R>> failureOf(String operation, Exception failure) {
        if (store.abortedToProtectIsolation(failure)) {
            return Optional.of(new Decision.Failed<>(Decision.Failure.WORK_CONFLICT));
        }
        Optional<String> refusal = TransactionControlAttempt.in(failure);
        if (!refusal.isPresent()) {
            return Optional.empty();
        }
        if (operationsLoggedAsSelfManaged.add(operation)) {
            LOG.log(
                    Level.SEVERE,
                    operation + " manages its own transactions, which cannot run inside the idempotency filter's"
                            + " JTA transaction, so every keyed request to it fails; the container refused with: "
                            + refusal.get() + ". Let the code join the container's transaction (no commit, rollback,"
                            + " setAutoCommit or UserTransaction.begin), or remove the operation from 'operations'."
                            + " See docs/legacy-applications.md, 'Applications not shaped like REST resources'"
                            + " (logged once per operation)",
                    failure);
        }
        return Optional.of(new Decision.TransactionControlRefused<>(refusal.get()));
    }

    private <R> Decision<R> storeAndCommit(Attempt attempt, Ran<R> ran) {
        try {
            store.complete(
                    attempt.id(),
                    encryption.storedResponse(attempt.id(), ran.toStore().get()));
            transaction.commit();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, attempt.id().operation() + " could not be committed", e);
            return new Decision.Failed<>(Decision.Failure.COMMIT_FAILED);
        }
        return new Decision.Executed<>(ran.result(), Instant.now().plus(attempt.retention()));
    }

    /** The stored outcome, if the record was made by this very request and the caller may see it. */
    private <R> Decision<R> answerWith(StoredRecord stored, Attempt attempt, CanonicalRequest request) {
        if (!attempt.mayReplay().getAsBoolean()) {
            return new Decision.ReplayForbidden<>();
        }
        StoredRecord record;
        try {
            record = encryption.readable(stored);
        } catch (RecordEncryption.UnreadableRecordException e) {
            // Neither replayed nor executed again: either could break the record's promise.
            LOG.severe("the record " + stored.id() + " cannot be opened: " + e.getMessage() + "; it is not replayed");
            return new Decision.Failed<>(Decision.Failure.RECORD_UNREADABLE);
        }
        if (!record.request().equals(request.text())) {
            return new Decision.Mismatched<>(request.differencesFrom(record.request()));
        }
        Instant answeredUntil = record.createdAt().plus(attempt.retention());
        if (!attempt.lateRetryWindow().isZero() && Instant.now().isAfter(answeredUntil)) {
            return new Decision.Expired<>(answeredUntil);
        }
        return new Decision.Replayed<>(record);
    }

    private <R> Decision<R> inProgress(RequestResultId id, long started) {
        listener.waitedForDuplicate(id.operation(), Duration.ofNanos(System.nanoTime() - started));
        return new Decision.Failed<>(Decision.Failure.IN_PROGRESS);
    }
}
