package dev.idempotency.store;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Comparator;

/**
 * One client's keyless requests to one operation on one UTC day: how many, how many of them were probable
 * duplicates (a retry the client marked, or the same request again within {@code keyless-duplicate-window}), and
 * the first and last of them, to the second. A row of {@code idempotency_keyless_day}, or an increment to one.
 *
 * @param principal the authenticated principal, {@code anonymous} if none
 * @param userAgent the User-Agent family ({@link dev.idempotency.rollout.UserAgentFamily})
 */
public record KeylessDay(
        String operation,
        String principal,
        String userAgent,
        LocalDate day,
        long requests,
        long duplicates,
        Instant firstSeen,
        Instant lastSeen) {
    /** Key order, the order in which every node writes, so that nodes adding at once never deadlock. */
    public static final Comparator<KeylessDay> KEY_ORDER = Comparator.comparing(KeylessDay::operation)
            .thenComparing(KeylessDay::principal)
            .thenComparing(KeylessDay::userAgent)
            .thenComparing(KeylessDay::day);
}
