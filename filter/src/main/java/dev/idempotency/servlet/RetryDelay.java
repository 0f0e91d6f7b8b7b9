package dev.idempotency.servlet;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long a client should wait before it retries an answer that a later retry can change, as {@code Retry-After}
 * (whole seconds, RFC 9110) and {@code retry-after-ms} (milliseconds, read by Stainless-generated SDKs).
 *
 * <p>Stainless-generated SDKs wait exactly the hint, without jitter, so clients refused together would retry
 * together, again and again. {@link #jittered} spreads them: each key gets its own share of up to a quarter of the
 * base delay on top of it, picked from the key's hash, so that the retries of different keys spread out while one
 * key always gets the same hint (and a test can assert its bounds without randomness).
 *
 * @param delay at least one millisecond
 */
record RetryDelay(Duration delay) {
    /** The share of the base delay that jitter may add. */
    private static final int JITTER_DIVISOR = 4;

    RetryDelay {
        if (delay.toMillis() < 1) {
            throw new IllegalArgumentException("a retry delay is at least 1 ms, was " + delay);
        }
    }

    /** {@code base}, plus up to a quarter of it picked by {@code key}'s hash. */
    static RetryDelay jittered(Duration base, String key) {
        long baseMillis = base.toMillis();
        long jitter = Math.floorMod(key.hashCode(), baseMillis / JITTER_DIVISOR + 1);
        return new RetryDelay(Duration.ofMillis(baseMillis + jitter));
    }

    /** {@code Retry-After} in whole seconds, rounded up so that a client never retries early, and at least 1. */
    long seconds() {
        return Math.max(1, (delay.toMillis() + 999) / 1000);
    }

    Map<String, List<String>> headers() {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put(WireNames.RETRY_AFTER_HEADER, Collections.singletonList(Long.toString(seconds())));
        headers.put(WireNames.RETRY_AFTER_MS_HEADER, Collections.singletonList(Long.toString(delay.toMillis())));
        return headers;
    }
}
