/**
 * Observing requests. Public: {@link dev.idempotency.metrics.Outcome}, the one value each covered request
 * ends with, and the JMX view {@link dev.idempotency.metrics.OperationCountersMBean} (its object name and
 * attributes are documented in {@code docs/operations.md}), and the names and tags under which {@link
 * dev.idempotency.metrics.ServerMetrics} feeds the server's own metrics system ({@code idempotency.requests},
 * {@code idempotency.duplicate.wait}). Internal: {@link
 * dev.idempotency.metrics.OutcomeListener} and the counters, which may change in any release.
 */
package dev.idempotency.metrics;
