/**
 * A caller the filter does not cover: a REST endpoint that makes many logical calls to another application's
 * {@code POST /v1/customers}, either with {@code idempotency-client} (a key per call, its retries by {@code
 * RetryPolicy}) or as hand-written code retries without it (a new keyless request per attempt). Used by {@code
 * JavaCallerIT}.
 */
package dev.idempotency.sample.keyedcaller;
