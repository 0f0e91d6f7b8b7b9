package dev.idempotency.core;

import dev.idempotency.store.StoredRecord;
import java.time.Instant;
import java.util.List;

/**
 * How the {@link IdempotentExecutor} ended one {@link Attempt}: exactly one of these, decided while the
 * transaction was open and handed back after it ended. An entry point turns it into its own answer.
 *
 * @param <R> what the entry point's work returned, for the outcomes where it ran
 */
public sealed interface Decision<R> {
    /** An earlier execution with the same key and the same request committed this record; nothing ran. */
    record Replayed<R>(StoredRecord record) implements Decision<R> {}

    /** The key was used for a different request; nothing ran. */
    record Mismatched<R>(List<String> differences) implements Decision<R> {}

    /**
     * The same request's record exists but its retention ended at {@code answeredUntil}: the operation refuses
     * late retries rather than run them again; nothing ran.
     */
    record Expired<R>(Instant answeredUntil) implements Decision<R> {}

    /** A record exists, but the caller may not be shown it now; nothing ran. */
    record ReplayForbidden<R>() implements Decision<R> {}

    /** The work ran, its outcome was stored with its effects, and the transaction committed. */
    record Executed<R>(R result, Instant expiresAt) implements Decision<R> {}

    /** The work ran, but its outcome is not one to keep: its effects were rolled back and the key is free. */
    record RolledBack<R>(R result) implements Decision<R> {}

    /**
     * The work's outcome was one to keep, but its transaction can no longer commit (rollback-only, or timed
     * out): everything was rolled back and the key is free.
     */
    record Doomed<R>(R result) implements Decision<R> {}

    /**
     * The work committed, rolled back or began a transaction of its own inside the attempt's, and the container
     * refused: nothing was kept, the key is free, and every attempt at the operation fails the same way until its
     * code changes.
     *
     * @param refusal the container's own words, such as {@code IJ031019: You cannot commit during a managed
     *     transaction}, with the exception's class
     */
    record TransactionControlRefused<R>(String refusal) implements Decision<R> {}

    /** In DRAIN, no record holds the key: the entry point runs the work itself, unprotected and unrecorded. */
    record NotRecorded<R>() implements Decision<R> {}

    /** The attempt could not be ended as asked; nothing of it was kept, and the same key may be retried. */
    record Failed<R>(Failure failure) implements Decision<R> {}

    /** Why an attempt failed without running, or without keeping what it ran. */
    enum Failure {
        /** Another attempt held the key past the wait bound. */
        IN_PROGRESS,
        /** The database kept aborting the claim to protect its isolation level. */
        TRANSACTION_CONFLICT,
        /**
         * The database aborted the transaction while the work ran (a serialization failure or a deadlock in the
         * work's own statements): nothing was kept, and the same request may well succeed when retried.
         */
        WORK_CONFLICT,
        /** The record could not be claimed or read. */
        STORE_UNAVAILABLE,
        /** The record could not be stored, or the transaction did not commit. */
        COMMIT_FAILED,
        /** The stored record cannot be opened with the configured keys: neither replayed nor executed again. */
        RECORD_UNREADABLE
    }
}
