package dev.idempotency.store;

/**
 * What {@link RequestResultStore#claim} found: either this transaction now owns the key, or a committed
 * record already holds it.
 */
public sealed interface ClaimOutcome {
    /** The key is ours until this transaction ends; the application may run. */
    record Claimed() implements ClaimOutcome {}

    /** Another execution committed a record under this key; compare requests, then replay or reject. */
    record Existing(StoredRecord record) implements ClaimOutcome {}
}
