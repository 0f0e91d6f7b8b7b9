package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The periodic work on a server without a managed scheduler: run by requests, at most once per interval. */
class HousekeepingTest {
    private static final Duration INTERVAL = Duration.ofMinutes(15);

    private final AtomicLong clock = new AtomicLong(1_000);
    private final AtomicInteger purges = new AtomicInteger();
    private final AtomicInteger stops = new AtomicInteger();
    private final Housekeeping housekeeping = new Housekeeping(
            Optional.empty(),
            List.of(new Housekeeping.Task(purges::incrementAndGet, INTERVAL)),
            stops::incrementAndGet,
            clock::get);

    @Test
    void nothingRunsBeforeTheFirstIntervalIsOver() {
        housekeeping.requestArrived();
        clock.addAndGet(INTERVAL.toNanos() - 1);
        housekeeping.requestArrived();

        assertEquals(0, purges.get());
    }

    @Test
    void theFirstRequestAfterTheIntervalRunsTheTaskAndTheNextOnesDoNot() {
        clock.addAndGet(INTERVAL.toNanos());
        housekeeping.requestArrived();
        housekeeping.requestArrived();
        assertEquals(1, purges.get());

        clock.addAndGet(INTERVAL.toNanos());
        housekeeping.requestArrived();
        assertEquals(2, purges.get());
    }

    @Test
    void stoppingRunsTheStopWorkOnce() {
        housekeeping.stop();

        assertEquals(1, stops.get());
        assertEquals(0, purges.get());
    }
}
