/**
 * Internal: counting how covered requests end, and feeding the counts to JMX and the server's metrics system. What
 * operators rely on is not a type but names, documented in {@code docs/operations.md}: the JMX object name and the
 * attributes of {@link dev.idempotency.metrics.OperationCountersMBean}, the values of {@link
 * dev.idempotency.metrics.Outcome} as they appear there and in tags, and the metric names and tags under which
 * {@link dev.idempotency.metrics.ServerMetrics} feeds the server's own metrics system ({@code idempotency.requests},
 * {@code idempotency.duplicate.wait}). The classes may change in any release.
 */
package dev.idempotency.metrics;
