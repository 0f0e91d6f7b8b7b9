package dev.idempotency.config;

/** What a covered operation does with a request that carries no idempotency key. */
public enum KeylessPolicy {
    /** Execute it unprotected and store nothing: the compatibility period for keyless clients. */
    PASS_THROUGH,
    /** Answer 400 {@code idempotency-key-required} before any effect. */
    REJECT
}
