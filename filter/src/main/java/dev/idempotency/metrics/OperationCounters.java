package dev.idempotency.metrics;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** One operation's outcome counters on this node. Thread-safe: each counter is a {@link LongAdder}. */
public final class OperationCounters implements OperationCountersMBean {
    private final String operation;
    private final Map<Outcome, LongAdder> outcomes = new EnumMap<>(Outcome.class);
    private final LongAdder duplicateWaits = new LongAdder();
    private final LongAdder duplicateWaitNanos = new LongAdder();

    OperationCounters(String operation) {
        this.operation = operation;
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(outcome, new LongAdder());
        }
    }

    void increment(Outcome outcome) {
        outcomes.get(outcome).increment();
    }

    void waited(Duration waited) {
        duplicateWaits.increment();
        duplicateWaitNanos.add(waited.toNanos());
    }

    /** How many requests ended with {@code outcome}. */
    public long count(Outcome outcome) {
        return outcomes.get(outcome).sum();
    }

    @Override
    public String getOperation() {
        return operation;
    }

    @Override
    public long getExecuted() {
        return outcomes.get(Outcome.EXECUTED).sum();
    }

    @Override
    public long getReplayed() {
        return outcomes.get(Outcome.REPLAYED).sum();
    }

    @Override
    public long getMismatches() {
        return outcomes.get(Outcome.MISMATCH).sum();
    }

    @Override
    public long getInProgress() {
        return outcomes.get(Outcome.IN_PROGRESS).sum();
    }

    @Override
    public long getRolledBack() {
        return outcomes.get(Outcome.ROLLED_BACK).sum();
    }

    @Override
    public long getFailed() {
        return outcomes.get(Outcome.FAILED).sum();
    }

    @Override
    public long getKeylessPassed() {
        return outcomes.get(Outcome.KEYLESS_PASSED).sum();
    }

    @Override
    public long getKeylessRefused() {
        return outcomes.get(Outcome.KEYLESS_REFUSED).sum();
    }

    @Override
    public long getDrainPassed() {
        return outcomes.get(Outcome.DRAIN_PASSED).sum();
    }

    @Override
    public long getRejected() {
        return outcomes.get(Outcome.REJECTED).sum();
    }

    @Override
    public long getDuplicateWaits() {
        return duplicateWaits.sum();
    }

    @Override
    public long getDuplicateWaitMillis() {
        return Duration.ofNanos(duplicateWaitNanos.sum()).toMillis();
    }
}
