package dev.idempotency.metrics;

/** The names and tags under which the server's metrics system shows the filter's counts. */
final class MetricNames {
    /** A counter per application, operation and outcome: {@code idempotency_requests_total} in Prometheus. */
    static final String REQUESTS = "idempotency.requests";

    /** A timer per application and operation: the time duplicates spent waiting for the first request. */
    static final String DUPLICATE_WAIT = "idempotency.duplicate.wait";

    static final String APPLICATION = "application";
    static final String OPERATION = "operation";
    static final String OUTCOME = "outcome";

    private MetricNames() {}
}
