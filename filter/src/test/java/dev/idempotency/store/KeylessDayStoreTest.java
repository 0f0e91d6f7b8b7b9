package dev.idempotency.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The cluster-wide keyless history on a real in-memory H2: additive per day, read by window, trimmed by day. */
class KeylessDayStoreTest {
    private static final LocalDate MONDAY = LocalDate.parse("2026-11-30");
    private static final Instant MONDAY_MORNING = Instant.parse("2026-11-30T08:00:00Z");
    private static final Instant MONDAY_NOON = Instant.parse("2026-11-30T12:00:00Z");
    private static final Instant MONDAY_EVENING = Instant.parse("2026-11-30T20:00:00Z");

    private final KeylessDayStore store;

    KeylessDayStoreTest() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        SqlDialect dialect = Engine.dialectNamed("h2");
        new FilterSchema(dataSource, dialect, "'test'").createMissing();
        store = new KeylessDayStore(dataSource, dialect);
    }

    private static KeylessDay bob(LocalDate day, long requests, long duplicates, Instant first, Instant last) {
        return new KeylessDay("debit:v1", "bob", "okhttp", day, requests, duplicates, first, last);
    }

    @Test
    void twoNodesAddingToOneDaySumTheirCountsAndKeepTheFirstAndLastSeen() {
        store.add(List.of(bob(MONDAY, 3, 1, MONDAY_NOON, MONDAY_NOON)));
        store.add(List.of(bob(MONDAY, 2, 2, MONDAY_MORNING, MONDAY_EVENING)));
        store.add(List.of(bob(MONDAY, 1, 0, MONDAY_NOON, MONDAY_NOON)));

        assertEquals(List.of(bob(MONDAY, 6, 3, MONDAY_MORNING, MONDAY_EVENING)), store.readSince(MONDAY));
    }

    @Test
    void eachClientAndDayIsARowOfItsOwn() {
        LocalDate tuesday = MONDAY.plusDays(1);
        Instant tuesdayNoon = MONDAY_NOON.plusSeconds(86_400);
        KeylessDay alice = new KeylessDay("debit:v1", "alice", "curl", MONDAY, 1, 0, MONDAY_NOON, MONDAY_NOON);
        KeylessDay otherOperation =
                new KeylessDay("open-account:v1", "bob", "okhttp", MONDAY, 4, 0, MONDAY_NOON, MONDAY_NOON);

        store.add(List.of(bob(tuesday, 1, 0, tuesdayNoon, tuesdayNoon), alice, otherOperation));
        store.add(List.of(bob(MONDAY, 2, 0, MONDAY_NOON, MONDAY_NOON)));

        assertEquals(
                List.of(
                        alice,
                        bob(MONDAY, 2, 0, MONDAY_NOON, MONDAY_NOON),
                        bob(tuesday, 1, 0, tuesdayNoon, tuesdayNoon),
                        otherOperation),
                store.readSince(MONDAY));
    }

    @Test
    void aWindowReadsOnlyItsDays() {
        LocalDate before = MONDAY.minusDays(1);
        Instant beforeNoon = MONDAY_NOON.minusSeconds(86_400);
        store.add(List.of(bob(before, 5, 0, beforeNoon, beforeNoon), bob(MONDAY, 1, 0, MONDAY_NOON, MONDAY_NOON)));

        assertEquals(List.of(bob(MONDAY, 1, 0, MONDAY_NOON, MONDAY_NOON)), store.readSince(MONDAY));
        assertEquals(2, store.readSince(before).size());
    }

    @Test
    void trimmingDeletesTheDaysBeforeTheFirstKeptAndNoneAfter() {
        // Across a month and a year boundary: ISO dates order as text.
        LocalDate newYearsEve = LocalDate.parse("2025-12-31");
        LocalDate lastOfNovember = LocalDate.parse("2026-11-29");
        Instant seen = Instant.parse("2025-12-31T12:00:00Z");
        store.add(List.of(
                bob(newYearsEve, 1, 0, seen, seen),
                bob(lastOfNovember, 1, 0, seen, seen),
                bob(MONDAY, 1, 0, MONDAY_NOON, MONDAY_NOON)));

        int deleted = store.deleteBefore(MONDAY);

        assertEquals(2, deleted);
        assertEquals(List.of(bob(MONDAY, 1, 0, MONDAY_NOON, MONDAY_NOON)), store.readSince(newYearsEve));
    }

    @Test
    void addingNothingWritesNothing() {
        store.add(List.of());

        assertEquals(List.of(), store.readSince(MONDAY));
    }
}
