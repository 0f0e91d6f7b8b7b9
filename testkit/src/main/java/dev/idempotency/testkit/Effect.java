package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.LongSupplier;

/**
 * The user's probe of what the endpoint does, such as a row count or a balance, and how far one execution
 * moves it. A check reads it before its first request and after each step, and counts executions as the
 * distance moved divided by {@code changePerExecution}. Without a probe, nothing is read and nothing is
 * asserted: the checks then see only what HTTP shows. Immutable; the probe is called from the test's thread.
 */
final class Effect {
    private static final Effect UNOBSERVED = new Effect(null, 0);

    private final LongSupplier probe;
    private final long changePerExecution;

    private Effect(LongSupplier probe, long changePerExecution) {
        this.probe = probe;
        this.changePerExecution = changePerExecution;
    }

    static Effect unobserved() {
        return UNOBSERVED;
    }

    static Effect of(LongSupplier probe, long changePerExecution) {
        return new Effect(probe, changePerExecution);
    }

    /** The probe's value now, or 0 without a probe. */
    long read() {
        return probe == null ? 0 : probe.getAsLong();
    }

    /** Asserts that the probe moved from {@code baseline} by exactly {@code executions} executions. */
    void assertExecutions(long executions, long baseline, String after) {
        if (probe == null) {
            return;
        }
        long now = probe.getAsLong();
        assertEquals(
                baseline + executions * changePerExecution,
                now,
                () -> "after " + after + ", the effect should have moved by " + executions * changePerExecution + " ("
                        + executions + " execution(s) of " + changePerExecution + "), but it" + moved(now - baseline));
    }

    /** How far the probe moved since {@code baseline}, as a sentence for a failure message; empty without a probe. */
    String movedSince(long baseline) {
        return probe == null ? "" : " The effect" + moved(probe.getAsLong() - baseline) + ".";
    }

    private String moved(long distance) {
        String executions = distance % changePerExecution == 0
                ? ", that is " + distance / changePerExecution + " execution(s)"
                : ", which is no whole number of executions";
        return " moved by " + distance + executions;
    }
}
