/**
 * Public API. The caller's half: one key per logical call that survives its retries ({@link
 * dev.idempotency.client.IdempotentCall}), the retry decisions ({@link dev.idempotency.client.RetryPolicy}, {@link
 * dev.idempotency.client.RetryDecision}), a retry loop for any client ({@link dev.idempotency.client.RetryLoop},
 * {@link dev.idempotency.client.CallResult}, {@link dev.idempotency.client.Sleeper}). Plain Java 8, no dependency.
 */
package dev.idempotency.client;
