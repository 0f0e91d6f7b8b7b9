package dev.idempotency.metrics;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Observes covered requests: the one seam metrics, logs and telemetry hang off. Called on the request's
 * thread after its response was written, so an implementation must be fast, thread-safe and must not
 * throw.
 */
public interface OutcomeListener {
    /** One call per request to a covered operation. */
    void requestEnded(String operation, Outcome outcome);

    /**
     * A keyed request found its key taken, or still held when its wait bound passed, after {@code waited} in
     * the claim: the time spent waiting for a concurrent duplicate (near zero when the holder had committed).
     */
    void waitedForDuplicate(String operation, Duration waited);

    /** One listener that tells each of {@code listeners}, in order. */
    static OutcomeListener all(OutcomeListener... listeners) {
        List<OutcomeListener> each = Arrays.asList(listeners);
        return new OutcomeListener() {
            @Override
            public void requestEnded(String operation, Outcome outcome) {
                each.forEach(listener -> listener.requestEnded(operation, outcome));
            }

            @Override
            public void waitedForDuplicate(String operation, Duration waited) {
                each.forEach(listener -> listener.waitedForDuplicate(operation, waited));
            }
        };
    }
}
