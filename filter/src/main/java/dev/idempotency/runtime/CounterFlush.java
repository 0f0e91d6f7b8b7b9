package dev.idempotency.runtime;

import dev.idempotency.metrics.JmxMetrics;
import dev.idempotency.metrics.OperationCounters;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.store.CounterStore;
import dev.idempotency.store.KeylessDay;
import dev.idempotency.store.KeylessDayStore;
import dev.idempotency.tx.Transaction;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Adds what this node counted since the last flush to the cluster-wide counters, on the container's
 * scheduler and once more when the application stops: one short transaction per flush, one row per counter
 * that moved, however many requests there were. A failed flush loses nothing; its increments go with the
 * next one. Only the increments since the last flush are lost if the JVM dies. The keyless history's days go in
 * the same transaction, so the totals and the history agree.
 *
 * <p>Thread-safe: the scheduler runs one flush at a time, and {@code stop} runs after it is cancelled.
 */
final class CounterFlush implements Runnable {
    static final String DUPLICATE_WAITS = "DUPLICATE_WAITS";
    static final String DUPLICATE_WAIT_MILLIS = "DUPLICATE_WAIT_MILLIS";

    private static final Logger LOG = Logger.getLogger(CounterFlush.class.getName());

    private final Transaction transaction;
    private final CounterStore store;
    private final JmxMetrics metrics;
    private final KeylessTelemetry keyless;
    private final KeylessDayStore days;
    private final Map<CounterStore.Key, Long> flushed = new HashMap<>();

    CounterFlush(
            Transaction transaction,
            CounterStore store,
            JmxMetrics metrics,
            KeylessTelemetry keyless,
            KeylessDayStore days) {
        this.transaction = transaction;
        this.store = store;
        this.metrics = metrics;
        this.keyless = keyless;
        this.days = days;
    }

    @Override
    public synchronized void run() {
        Map<CounterStore.Key, Long> current = current();
        Map<CounterStore.Key, Long> increments = new HashMap<>();
        current.forEach((key, count) -> {
            long increment = count - flushed.getOrDefault(key, 0L);
            if (increment != 0) {
                increments.put(key, increment);
            }
        });
        List<KeylessDay> keylessDays = keyless.history().take();
        if (increments.isEmpty() && keylessDays.isEmpty()) {
            return;
        }
        try {
            transaction.inTransaction(() -> {
                if (!increments.isEmpty()) {
                    store.add(increments);
                }
                days.add(keylessDays);
                return null;
            });
            flushed.putAll(current);
        } catch (RuntimeException e) {
            keyless.history().giveBack(keylessDays);
            LOG.log(
                    Level.WARNING,
                    "adding this node's counts to idempotency_counter failed; the next flush adds them",
                    e);
        }
    }

    private Map<CounterStore.Key, Long> current() {
        Map<CounterStore.Key, Long> current = new HashMap<>();
        for (String operation : metrics.operations()) {
            OperationCounters counters = metrics.countersOf(operation);
            for (Outcome outcome : Outcome.values()) {
                current.put(outcomeKey(operation, outcome.name()), counters.count(outcome));
            }
            current.put(outcomeKey(operation, DUPLICATE_WAITS), counters.getDuplicateWaits());
            current.put(outcomeKey(operation, DUPLICATE_WAIT_MILLIS), counters.getDuplicateWaitMillis());
        }
        keyless.snapshot()
                .forEach((operation, clients) -> clients.forEach((client, count) -> current.put(
                        new CounterStore.Key(
                                operation, CounterStore.KEYLESS, client.principal(), client.userAgentFamily()),
                        count)));
        return current;
    }

    private static CounterStore.Key outcomeKey(String operation, String counter) {
        return new CounterStore.Key(operation, counter, "", "");
    }
}
