package dev.idempotency.rollout;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Tells which keyless requests probably ran twice: those the client marked as a retry, and those that repeat the
 * same request of the same client within {@code keyless-duplicate-window}. Under {@code OPTIONAL} such a request is
 * exactly the one a key would have made safe, so these counts are the evidence for requiring keys.
 *
 * <p>Holds, per client, only the SHA-256 of each recent request's shape ({@link KeylessRequest}) and when it was
 * seen, never a path, a query or a body; at most {@code capacity} of them, the least recently seen going first.
 *
 * <p>Thread-safe: one short lock per keyless request.
 */
public final class ProbableDuplicates {
    /** One request shape of one client, by its digest. */
    private record Seen(KeylessTelemetry.Client client, String digest) {}

    private final long windowNanos;
    private final LongSupplier nanoTime;
    private final Map<Seen, Long> lastSeenNanos;

    public ProbableDuplicates(Duration window, int capacity, LongSupplier nanoTime) {
        this.windowNanos = window.toNanos();
        this.nanoTime = nanoTime;
        this.lastSeenNanos = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Seen, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /** Whether this request is probably a second run of an earlier one; remembers it for the next. */
    public boolean isProbableDuplicate(KeylessTelemetry.Client client, KeylessRequest request) {
        Seen seen = new Seen(client, request.digest());
        long now = nanoTime.getAsLong();
        Long before;
        synchronized (lastSeenNanos) {
            before = lastSeenNanos.put(seen, now);
        }
        boolean repeated = before != null && now - before <= windowNanos;
        return request.markedAsRetry() || repeated;
    }
}
