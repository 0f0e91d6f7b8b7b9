package dev.idempotency.client;

import java.time.Duration;

/**
 * What {@link RetryPolicy} decided after one attempt: retry after a delay, or stop, and why, in words fit for a log
 * line.
 *
 * <p>Immutable and thread-safe.
 */
public final class RetryDecision {
    private final boolean retry;
    private final Duration delay;
    private final String reason;

    private RetryDecision(boolean retry, Duration delay, String reason) {
        this.retry = retry;
        this.delay = delay;
        this.reason = reason;
    }

    static RetryDecision retryAfter(Duration delay, String reason) {
        return new RetryDecision(true, delay, reason);
    }

    static RetryDecision stop(String reason) {
        return new RetryDecision(false, Duration.ZERO, reason);
    }

    /** Whether to send the call again, with the same key. */
    public boolean shouldRetry() {
        return retry;
    }

    /** How long to wait before the next attempt; zero when the decision is to stop. */
    public Duration delay() {
        return delay;
    }

    /** Why, such as {@code "status 503 may change on a retry"} or {@code "status 422 is final"}. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return retry ? "retry after " + delay.toMillis() + " ms: " + reason : "stop: " + reason;
    }
}
