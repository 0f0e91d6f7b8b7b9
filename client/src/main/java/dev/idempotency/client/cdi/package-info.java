/**
 * Public API. A CDI interceptor binding, {@link dev.idempotency.client.cdi.KeyedCall}, that makes a method one
 * logical call, outside MicroProfile Fault Tolerance's retries.
 */
package dev.idempotency.client.cdi;
