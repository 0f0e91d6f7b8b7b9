package dev.idempotency.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.store.KeylessDay;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** This node's day-by-day keyless counts, between two flushes. */
class KeylessHistoryTest {
    private static final Instant BEFORE_MIDNIGHT = Instant.parse("2026-11-30T23:59:59.700Z");

    /** A clock the test moves. */
    private static final class SteppedClock extends Clock {
        private Instant now = BEFORE_MIDNIGHT;

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final SteppedClock clock = new SteppedClock();
    private final KeylessTelemetry telemetry = new KeylessTelemetry(
            new KeylessHistory(clock), new ProbableDuplicates(Duration.ofSeconds(10), 100, System::nanoTime));

    private static KeylessRequest retry(int attempt) {
        return new KeylessRequest("POST", "/debits", null, null, 0, Integer.toString(attempt));
    }

    @Test
    void countsEachClientPerUtcDayWithTheProbableDuplicatesAndTheFirstAndLastSecond() {
        telemetry.count("debit:v1", "bob", "openai/5.1", retry(0));
        telemetry.count("debit:v1", "bob", "openai/5.1", retry(1));
        clock.now = BEFORE_MIDNIGHT.plusSeconds(1);
        telemetry.count("debit:v1", "bob", "openai/5.1", retry(2));
        telemetry.count("debit:v1", null, "curl/8", retry(0));

        Instant lastSecond = Instant.parse("2026-11-30T23:59:59Z");
        Instant firstOfDecember = Instant.parse("2026-12-01T00:00:00Z");
        assertEquals(
                List.of(
                        new KeylessDay(
                                "debit:v1",
                                "anonymous",
                                "curl",
                                LocalDate.parse("2026-12-01"),
                                1,
                                0,
                                firstOfDecember,
                                firstOfDecember),
                        new KeylessDay(
                                "debit:v1",
                                "bob",
                                "openai",
                                LocalDate.parse("2026-11-30"),
                                2,
                                1,
                                lastSecond,
                                lastSecond),
                        new KeylessDay(
                                "debit:v1",
                                "bob",
                                "openai",
                                LocalDate.parse("2026-12-01"),
                                1,
                                1,
                                firstOfDecember,
                                firstOfDecember)),
                taken());
    }

    @Test
    void whatWasTakenIsNotTakenAgain() {
        telemetry.count("debit:v1", "bob", "openai", retry(0));
        taken();

        assertEquals(List.of(), taken());
    }

    @Test
    void whatAFailedFlushGivesBackGoesWithTheNextMergedWithTheNewCounts() {
        telemetry.count("debit:v1", "bob", "openai", retry(1));
        List<KeylessDay> failed = telemetry.history().take();
        clock.now = BEFORE_MIDNIGHT.minusSeconds(30);
        telemetry.count("debit:v1", "bob", "openai", new KeylessRequest("POST", "/debits", null, null, 1, "0"));

        telemetry.history().giveBack(failed);

        assertEquals(
                List.of(new KeylessDay(
                        "debit:v1",
                        "bob",
                        "openai",
                        LocalDate.parse("2026-11-30"),
                        2,
                        1,
                        Instant.parse("2026-11-30T23:59:29Z"),
                        Instant.parse("2026-11-30T23:59:59Z"))),
                taken());
    }

    @Test
    void aWindowOfNinetyDaysEndingTodayBeginsEightyNineDaysBefore() {
        assertEquals(LocalDate.parse("2026-09-03"), KeylessHistory.firstDayKept(LocalDate.parse("2026-12-01"), 90));
        assertEquals(LocalDate.parse("2026-12-01"), KeylessHistory.firstDayKept(LocalDate.parse("2026-12-01"), 1));
    }

    private List<KeylessDay> taken() {
        return telemetry.history().take().stream().sorted(KeylessDay.KEY_ORDER).toList();
    }
}
