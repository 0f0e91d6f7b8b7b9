/**
 * Public API. The Jakarta REST client adapter, for MicroProfile Rest Client too: {@link
 * dev.idempotency.client.jaxrs.IdempotencyKeyFilter} keys the requests, {@link
 * dev.idempotency.client.jaxrs.IdempotentInvoker} retries them.
 */
package dev.idempotency.client.jaxrs;
