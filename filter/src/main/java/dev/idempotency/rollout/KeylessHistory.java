package dev.idempotency.rollout;

import dev.idempotency.store.KeylessDay;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * This node's keyless requests per operation, client and UTC day since the last flush to {@code
 * idempotency_keyless_day}: the flush {@linkplain #take() takes} them, adds them to the table, and {@linkplain
 * #giveBack gives them back} if that failed, so a failed flush loses nothing.
 *
 * <p>Thread-safe: each request merges into its day's entry atomically, and {@link #take()} removes each entry
 * atomically, so no request is counted twice or lost between the two. Memory holds one entry per client and day
 * since the last successful flush; clients are already bounded by {@link KeylessTelemetry}.
 */
public final class KeylessHistory {
    private record DayOfClient(String operation, KeylessTelemetry.Client client, LocalDate day) {}

    private final Clock clock;
    private final Map<DayOfClient, KeylessDay> pending = new ConcurrentHashMap<>();

    public KeylessHistory(Clock clock) {
        this.clock = clock;
    }

    /**
     * The oldest UTC day a history of {@code days} days keeps, today being the last: older rows are trimmed by the
     * purge, and never read.
     */
    public static LocalDate firstDayKept(LocalDate today, int days) {
        return today.minusDays(days - 1L);
    }

    /** Counts one keyless request, now. */
    void record(String operation, KeylessTelemetry.Client client, boolean probableDuplicate) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
        LocalDate day = now.atOffset(ZoneOffset.UTC).toLocalDate();
        KeylessDay one = new KeylessDay(
                operation, client.principal(), client.userAgentFamily(), day, 1, probableDuplicate ? 1 : 0, now, now);
        pending.merge(new DayOfClient(operation, client, day), one, KeylessHistory::sum);
    }

    /** Removes and returns what was counted since the last take. */
    public List<KeylessDay> take() {
        List<KeylessDay> taken = new ArrayList<>();
        for (DayOfClient key : new ArrayList<>(pending.keySet())) {
            KeylessDay day = pending.remove(key);
            if (day != null) {
                taken.add(day);
            }
        }
        return taken;
    }

    /** Puts back what a failed flush took, merged with what was counted meanwhile. */
    public void giveBack(Collection<KeylessDay> days) {
        for (KeylessDay day : days) {
            pending.merge(
                    new DayOfClient(
                            day.operation(), new KeylessTelemetry.Client(day.principal(), day.userAgent()), day.day()),
                    day,
                    KeylessHistory::sum);
        }
    }

    private static KeylessDay sum(KeylessDay a, KeylessDay b) {
        return new KeylessDay(
                a.operation(),
                a.principal(),
                a.userAgent(),
                a.day(),
                a.requests() + b.requests(),
                a.duplicates() + b.duplicates(),
                a.firstSeen().isBefore(b.firstSeen()) ? a.firstSeen() : b.firstSeen(),
                a.lastSeen().isAfter(b.lastSeen()) ? a.lastSeen() : b.lastSeen());
    }
}
