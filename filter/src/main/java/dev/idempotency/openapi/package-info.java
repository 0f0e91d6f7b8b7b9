/**
 * Internal: what {@link dev.idempotency.IdempotencyOpenApiFilter} adds to an application's OpenAPI document for the
 * operations the filter covers. Loaded only where the server has MicroProfile OpenAPI and the application names
 * the filter in {@code mp.openapi.filter}. May change in any release.
 */
package dev.idempotency.openapi;
