package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.metrics.JmxMetrics;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.rollout.KeylessHistory;
import dev.idempotency.rollout.KeylessRequest;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.ProbableDuplicates;
import dev.idempotency.store.CounterStore;
import dev.idempotency.store.KeylessDayStore;
import dev.idempotency.testing.H2Database;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What this node counted, added to the cluster-wide counters, on a real H2 with local transactions. */
class CounterFlushTest {
    private final H2Database database = new H2Database();
    private final CounterStore store = new CounterStore(database.transactions(), H2Database.DIALECT);
    private final JmxMetrics metrics = new JmxMetrics("/flush-" + UUID.randomUUID(), List.of("debit:v1"));
    private final KeylessTelemetry keyless = new KeylessTelemetry(
            new KeylessHistory(Clock.systemUTC()),
            new ProbableDuplicates(Duration.ofSeconds(10), 100, System::nanoTime));
    private final CounterFlush flush = new CounterFlush(
            database.transactions(),
            store,
            metrics,
            keyless,
            new KeylessDayStore(database.transactions(), H2Database.DIALECT));

    private static final KeylessRequest DEBIT = new KeylessRequest("POST", "/debits", null, null, 0, null);

    @AfterEach
    void unregister() {
        metrics.stop();
    }

    @Test
    void eachFlushAddsOnlyWhatWasCountedSinceTheLastOne() {
        metrics.requestEnded("debit:v1", Outcome.EXECUTED);
        metrics.requestEnded("debit:v1", Outcome.EXECUTED);
        flush.run();
        metrics.requestEnded("debit:v1", Outcome.EXECUTED);
        metrics.requestEnded("debit:v1", Outcome.REPLAYED);
        flush.run();
        flush.run();

        assertEquals(3, count("debit:v1", "EXECUTED", ""));
        assertEquals(1, count("debit:v1", "REPLAYED", ""));
    }

    @Test
    void keylessRequestsAreCountedByClient() {
        keyless.count("debit:v1", "alice", "curl/8.5", DEBIT);
        keyless.count("debit:v1", "alice", "curl/8.5", DEBIT);
        flush.run();

        assertEquals(2, count("debit:v1", CounterStore.KEYLESS, "alice"));
    }

    @Test
    void aFailedFlushLosesNothingTheNextOneAddsIt() throws Exception {
        metrics.requestEnded("debit:v1", Outcome.EXECUTED);
        database.execute("ALTER TABLE idempotency_counter RENAME TO idempotency_counter_away");
        flush.run();
        database.execute("ALTER TABLE idempotency_counter_away RENAME TO idempotency_counter");
        metrics.requestEnded("debit:v1", Outcome.EXECUTED);
        flush.run();

        assertEquals(2, count("debit:v1", "EXECUTED", ""));
    }

    private long count(String operation, String counter, String principal) {
        return store.readAll().stream()
                .filter(value -> value.key().operation().equals(operation)
                        && value.key().counter().equals(counter)
                        && value.key().principal().equals(principal))
                .mapToLong(CounterStore.Value::count)
                .sum();
    }
}
