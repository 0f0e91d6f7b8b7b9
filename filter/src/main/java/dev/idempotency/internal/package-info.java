/**
 * Internal: the request path, the per-filter runtime, finding the application's datasource, and the purge.
 * Also holds the bundled, relocated Jackson ({@code dev.idempotency.internal.jackson}), which no application
 * may use. May change in any release.
 */
package dev.idempotency.internal;
