package dev.idempotency.config;

/**
 * Whether the filter's answers tell a client's SDK if a retry can change them: the {@code retry-hints} setting.
 * Off by default, because the headers are other vendors' names, not a standard.
 */
public enum RetryHints {
    /** No hint besides {@code Retry-After} and {@code retry-after-ms}. */
    NONE,
    /**
     * {@code x-should-retry} (Stainless-generated SDKs) and {@code Stripe-Should-Retry} (the Stripe SDKs):
     * {@code false} on an answer a retry cannot change, {@code true} on one it can.
     */
    SDK
}
