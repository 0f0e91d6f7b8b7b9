package dev.idempotency.rollout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.store.KeylessDay;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The readiness verdict, read from an operation's keyless history. */
class ReadinessTest {
    private static final LocalDate TODAY = LocalDate.parse("2026-12-04");
    private static final LocalDate FIRST_DAY = TODAY.minusDays(89);

    private static KeylessDay seen(String principal, LocalDate day, long requests, long duplicates) {
        Instant noon = day.atTime(12, 0).toInstant(ZoneOffset.UTC);
        return new KeylessDay("debit:v1", principal, "okhttp", day, requests, duplicates, noon, noon);
    }

    @Test
    void readyWhenTheLastKeylessRequestIsOlderThanTheQuietDays() {
        Readiness readiness = Readiness.of(List.of(seen("bob", TODAY.minusDays(30), 4, 0)), FIRST_DAY, TODAY, 30);

        assertTrue(readiness.ready());
        assertEquals(List.of(), readiness.blocking());
        assertEquals(1, readiness.clients().size(), "the client still shows in the history");
    }

    @Test
    void notReadyWhileAClientSentOneWithinTheQuietDaysWhichNamesItAndItsLastSeen() {
        Readiness readiness = Readiness.of(
                List.of(
                        seen("bob", TODAY.minusDays(29), 1, 0),
                        seen("bob", TODAY.minusDays(40), 9, 0),
                        seen("carol", TODAY.minusDays(60), 2, 0)),
                FIRST_DAY,
                TODAY,
                30);

        assertFalse(readiness.ready());
        assertEquals(1, readiness.blocking().size());
        Readiness.ClientHistory bob = readiness.blocking().get(0);
        assertEquals("bob", bob.principal());
        assertEquals(TODAY.minusDays(29), bob.lastSeenDay());
        assertEquals(TODAY.minusDays(40), LocalDate.ofInstant(bob.firstSeen(), ZoneOffset.UTC));
        assertEquals(10, bob.requests());
        assertEquals(
                List.of("bob", "carol"),
                readiness.clients().stream()
                        .map(Readiness.ClientHistory::principal)
                        .toList());
    }

    @Test
    void readyWithNoHistoryAtAll() {
        assertTrue(Readiness.of(List.of(), FIRST_DAY, TODAY, 30).ready());
    }

    @Test
    void countsTheProbableDuplicatesOfTheLastSevenDaysTodayIncluded() {
        Readiness readiness = Readiness.of(
                List.of(
                        seen("bob", TODAY, 10, 3),
                        seen("bob", TODAY.minusDays(6), 5, 2),
                        seen("alice", TODAY.minusDays(6), 5, 4),
                        seen("bob", TODAY.minusDays(7), 50, 40)),
                FIRST_DAY,
                TODAY,
                30);

        assertEquals(9, readiness.probableDuplicatesLast7Days());
        Readiness.ClientHistory bob = readiness.clients().stream()
                .filter(client -> client.principal().equals("bob"))
                .findFirst()
                .orElseThrow();
        assertEquals(45, bob.duplicates());
        assertEquals(5, bob.duplicatesLast7Days());
    }

    @Test
    void everyDayOfTheWindowHasATotalAndDaysOutsideItAreIgnored() {
        Readiness readiness = Readiness.of(
                List.of(
                        seen("bob", TODAY, 2, 1),
                        seen("alice", TODAY, 3, 0),
                        seen("bob", FIRST_DAY.minusDays(1), 100, 100)),
                FIRST_DAY,
                TODAY,
                30);

        assertEquals(90, readiness.days().size());
        assertEquals(new Readiness.DayTotal(FIRST_DAY, 0, 0), readiness.days().get(0));
        assertEquals(new Readiness.DayTotal(TODAY, 5, 1), readiness.days().get(89));
        assertEquals(1, readiness.probableDuplicatesLast7Days());
    }
}
