package dev.idempotency.rollout;

import dev.idempotency.store.KeylessDay;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Whether requiring keys on one operation would break anyone now, read from its keyless history: ready when no
 * client has sent it a keyless request for {@code readiness-quiet-days}; otherwise the clients that did, with when
 * they were last seen. The probable duplicates of the last seven days are the cost of waiting: requests that
 * probably ran twice because they had no key.
 *
 * @param ready no keyless request in the last {@code quietDays} days, as of each node's last flush
 * @param quietDays the days without keyless requests that make an operation ready
 * @param clients every client of the history's window, most recently seen first
 * @param blocking the clients seen within the last {@code quietDays} days, most recently seen first
 * @param probableDuplicatesLast7Days probable duplicates over the last seven days, today included
 * @param days every day of the window, oldest first, with its keyless requests and probable duplicates
 */
public record Readiness(
        boolean ready,
        int quietDays,
        List<ClientHistory> clients,
        List<ClientHistory> blocking,
        long probableDuplicatesLast7Days,
        List<DayTotal> days) {
    /** The days over which the probable duplicates are shown as one figure. */
    public static final int DUPLICATE_DAYS = 7;

    /** One client's keyless requests over the window. */
    public record ClientHistory(
            String principal,
            String userAgent,
            Instant firstSeen,
            Instant lastSeen,
            long requests,
            long duplicates,
            long duplicatesLast7Days) {
        /** The UTC day this client last sent a keyless request. */
        public LocalDate lastSeenDay() {
            return lastSeen.atOffset(ZoneOffset.UTC).toLocalDate();
        }
    }

    /** One day's keyless requests of every client, and the probable duplicates among them. */
    public record DayTotal(LocalDate day, long requests, long duplicates) {}

    /**
     * @param history the operation's days, of every client, from {@code firstDay} on
     * @param today the UTC day the verdict is for
     */
    public static Readiness of(Collection<KeylessDay> history, LocalDate firstDay, LocalDate today, int quietDays) {
        LocalDate quietFrom = today.minusDays(quietDays - 1L);
        LocalDate duplicatesFrom = today.minusDays(DUPLICATE_DAYS - 1L);
        Map<LocalDate, long[]> byDay = new TreeMap<>();
        for (LocalDate day = firstDay; !day.isAfter(today); day = day.plusDays(1)) {
            byDay.put(day, new long[2]);
        }
        Map<KeylessTelemetry.Client, ClientHistory> byClient = new LinkedHashMap<>();
        long duplicatesLast7Days = 0;
        for (KeylessDay day : history) {
            if (day.day().isBefore(firstDay) || day.day().isAfter(today)) {
                continue;
            }
            long[] total = byDay.get(day.day());
            total[0] += day.requests();
            total[1] += day.duplicates();
            long recentDuplicates = day.day().isBefore(duplicatesFrom) ? 0 : day.duplicates();
            duplicatesLast7Days += recentDuplicates;
            ClientHistory one = new ClientHistory(
                    day.principal(),
                    day.userAgent(),
                    day.firstSeen(),
                    day.lastSeen(),
                    day.requests(),
                    day.duplicates(),
                    recentDuplicates);
            byClient.merge(new KeylessTelemetry.Client(day.principal(), day.userAgent()), one, Readiness::sum);
        }
        List<ClientHistory> clients = new ArrayList<>(byClient.values());
        clients.sort((a, b) -> b.lastSeen().compareTo(a.lastSeen()));
        List<ClientHistory> blocking = clients.stream()
                .filter(client -> !client.lastSeenDay().isBefore(quietFrom))
                .collect(Collectors.toList());
        List<DayTotal> days = new ArrayList<>();
        byDay.forEach((day, total) -> days.add(new DayTotal(day, total[0], total[1])));
        return new Readiness(
                blocking.isEmpty(),
                quietDays,
                Collections.unmodifiableList(clients),
                Collections.unmodifiableList(blocking),
                duplicatesLast7Days,
                Collections.unmodifiableList(days));
    }

    private static ClientHistory sum(ClientHistory a, ClientHistory b) {
        return new ClientHistory(
                a.principal(),
                a.userAgent(),
                a.firstSeen().isBefore(b.firstSeen()) ? a.firstSeen() : b.firstSeen(),
                a.lastSeen().isAfter(b.lastSeen()) ? a.lastSeen() : b.lastSeen(),
                a.requests() + b.requests(),
                a.duplicates() + b.duplicates(),
                a.duplicatesLast7Days() + b.duplicatesLast7Days());
    }
}
