package dev.idempotency.client;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.MalformedURLException;
import java.net.ProtocolException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.UnknownServiceException;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * Decides, after each attempt of a keyed call, whether to send it again with the same key and how long to wait
 * first. Because the call carries an idempotency key, a resend is safe: the service runs it at most once and
 * replays the first execution's answer. The policy therefore asks only whether a retry can change the outcome.
 *
 * <table>
 *   <caption>What is retried</caption>
 *   <tr><th>after</th><th>decision</th></tr>
 *   <tr><td>1xx, 2xx, 3xx</td><td>stop: an answer</td></tr>
 *   <tr><td>408, 409 (the filter's "request in flight"), 429, 502, 503, 504</td><td>retry</td></tr>
 *   <tr><td>any other 4xx (400, 401, 403, 404, 422, ...), 500, 501, other 5xx</td><td>stop: a retry gets the
 *       same answer</td></tr>
 *   <tr><td>{@code x-should-retry: false}</td><td>stop, whatever the status (it wins over everything)</td></tr>
 *   <tr><td>{@code x-should-retry: true} on a 4xx or 5xx</td><td>retry, whatever the status</td></tr>
 *   <tr><td>an {@link IOException} anywhere in the failure's causes: connection refused or reset, a timeout
 *       (connect or read, {@code java.net.http.HttpTimeoutException} too), an answer cut off</td><td>retry</td></tr>
 *   <tr><td>{@link UnknownHostException}, {@link FileNotFoundException} ({@code HttpURLConnection}'s 404 and
 *       410), {@link SSLHandshakeException}, {@link SSLPeerUnverifiedException},
 *       {@link MalformedURLException}, {@link UnknownServiceException}, {@link ProtocolException}, an {@link
 *       InterruptedIOException} other than a timeout</td><td>stop: configuration or an interrupt, which a
 *       retry within seconds does not change</td></tr>
 *   <tr><td>anything else (a failure with no I/O cause)</td><td>stop</td></tr>
 * </table>
 *
 * <p>Every retry is bounded by {@linkplain Builder#maxAttempts(int) the attempts} and by {@linkplain
 * Builder#maxTotalTime(Duration) the total time}: no retry starts after it. A wait that would end past it is cut to
 * end there, except a server's hint: a call told to wait past the total time stops at once with the answer it
 * has.
 *
 * <p>The wait: the server's hint if it gave one ({@code retry-after-ms}, else {@code Retry-After} in seconds or as
 * an HTTP date; a date in the past is a hint of zero), plus a random share of the back-off, so that callers told
 * the same {@code Retry-After} do not come back in lockstep. Without a hint, "full jitter": a random time between
 * zero and the back-off, which is {@linkplain Builder#baseDelay(Duration) the base delay} doubled for each retry
 * made and capped at {@linkplain Builder#maxDelay(Duration) the largest delay}.
 *
 * <p>Immutable and thread-safe, provided the clock, sleeper and random source given to the builder are.
 */
public final class RetryPolicy {
    /** The wait the server asks for, in delta-seconds or as an HTTP date (RFC 9110, section 10.2.3). */
    public static final String RETRY_AFTER = "Retry-After";

    /** The wait the server asks for, in milliseconds; read before {@value #RETRY_AFTER} when both are sent. */
    public static final String RETRY_AFTER_MS = "retry-after-ms";

    /** The server's own verdict, {@code true} or {@code false}, as the filter sends it under {@code retry-hints}. */
    public static final String SHOULD_RETRY = "x-should-retry";

    /** 3 attempts: the first and two retries. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    public static final Duration DEFAULT_MAX_TOTAL_TIME = Duration.ofSeconds(30);
    public static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(500);
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(5);

    private static final Set<Integer> RETRIED_STATUSES =
            Collections.unmodifiableSet(new HashSet<>(Arrays.asList(408, 409, 429, 502, 503, 504)));

    private static final Set<Class<? extends IOException>> FINAL_IO_FAILURES =
            Collections.unmodifiableSet(new HashSet<Class<? extends IOException>>(Arrays.asList(
                    UnknownHostException.class,
                    // HttpURLConnection's 404 and 410, thrown when the body is read.
                    FileNotFoundException.class,
                    SSLHandshakeException.class,
                    SSLPeerUnverifiedException.class,
                    MalformedURLException.class,
                    UnknownServiceException.class,
                    ProtocolException.class)));

    private static final RetryPolicy DEFAULTS = builder().build();

    private final int maxAttempts;
    private final Duration maxTotalTime;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final Clock clock;
    private final Sleeper sleeper;
    private final DoubleSupplier random;

    private RetryPolicy(Builder builder) {
        this.maxAttempts = builder.maxAttempts;
        this.maxTotalTime = builder.maxTotalTime;
        this.baseDelay = builder.baseDelay;
        this.maxDelay = builder.maxDelay;
        this.clock = builder.clock;
        this.sleeper = builder.sleeper;
        this.random = builder.random;
    }

    /** The defaults: 3 attempts within 30 s, back-off 0.5 s doubled per retry up to 5 s, full jitter. */
    public static RetryPolicy defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this policy's values, to change some of them. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.maxAttempts = maxAttempts;
        builder.maxTotalTime = maxTotalTime;
        builder.baseDelay = baseDelay;
        builder.maxDelay = maxDelay;
        builder.clock = clock;
        builder.sleeper = sleeper;
        builder.random = random;
        return builder;
    }

    /**
     * The decision after an attempt that got an answer.
     *
     * @param attemptsMade the attempts made so far, this one included (1 after the first)
     * @param elapsed the time since the first attempt started
     * @param status the answer's HTTP status
     * @param header the answer's header by name, case-insensitively, or null when absent
     */
    public RetryDecision afterAnswer(int attemptsMade, Duration elapsed, int status, Function<String, String> header) {
        String verdict = trimmed(header.apply(SHOULD_RETRY));
        if ("false".equalsIgnoreCase(verdict)) {
            return RetryDecision.stop(SHOULD_RETRY + ": false");
        }
        if (status < 400) {
            return RetryDecision.stop("status " + status + " is an answer");
        }
        String why;
        if ("true".equalsIgnoreCase(verdict)) {
            why = "status " + status + " with " + SHOULD_RETRY + ": true";
        } else if (RETRIED_STATUSES.contains(status)) {
            why = "status " + status + " may change on a retry";
        } else {
            return RetryDecision.stop("status " + status + " is final");
        }
        return retryIfBounded(attemptsMade, elapsed, serverHint(header), why);
    }

    /**
     * The decision after an attempt that failed without an answer.
     *
     * @param attemptsMade the attempts made so far, this one included (1 after the first)
     * @param elapsed the time since the first attempt started
     * @param failure what the attempt threw; its causes are read too, so a client's wrapper (such as Jakarta REST's
     *     {@code ProcessingException}) needs no unwrapping
     */
    public RetryDecision afterFailure(int attemptsMade, Duration elapsed, Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof IOException) {
                String name = cause.getClass().getName();
                if (isFinal((IOException) cause)) {
                    return RetryDecision.stop(name + " does not change on a retry");
                }
                return retryIfBounded(
                        attemptsMade,
                        elapsed,
                        null,
                        name + ": the call may not have arrived or its" + " answer was lost");
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return RetryDecision.stop(failure.getClass().getName() + " is no I/O failure");
    }

    private static boolean isFinal(IOException failure) {
        for (Class<? extends IOException> kind : FINAL_IO_FAILURES) {
            if (kind.isInstance(failure)) {
                return true;
            }
        }
        // An interrupt asks the thread to stop; a socket timeout is the one interrupted I/O that is not one.
        return failure instanceof InterruptedIOException && !(failure instanceof SocketTimeoutException);
    }

    private RetryDecision retryIfBounded(int attemptsMade, Duration elapsed, Duration hint, String why) {
        if (attemptsMade >= maxAttempts) {
            return RetryDecision.stop(why + ", but " + attemptsMade + " attempts were made, the most allowed");
        }
        Duration left = maxTotalTime.minus(elapsed);
        if (left.isNegative() || left.isZero()) {
            return RetryDecision.stop(why + ", but the total time of " + maxTotalTime.toMillis() + " ms has passed");
        }
        if (hint != null && hint.compareTo(left) > 0) {
            return RetryDecision.stop(why + ", but the server asks to wait " + hint.toMillis()
                    + " ms, past the total time of " + maxTotalTime.toMillis() + " ms");
        }
        Duration wanted = hint == null ? jitter(backoff(attemptsMade)) : hint.plus(jitter(backoff(attemptsMade)));
        // The last retry starts at the bound at the latest, rather than not at all.
        Duration delay = wanted.compareTo(left) > 0 ? left : wanted;
        return RetryDecision.retryAfter(delay, why);
    }

    /** The base delay doubled for each retry already made, capped; before the first retry, the base delay. */
    private Duration backoff(int attemptsMade) {
        int doublings = Math.min(attemptsMade - 1, 30);
        long millis = baseDelay.toMillis() << doublings;
        return millis >= maxDelay.toMillis() || millis < 0 ? maxDelay : Duration.ofMillis(millis);
    }

    private Duration jitter(Duration upTo) {
        double share = random.getAsDouble();
        return Duration.ofMillis((long) (upTo.toMillis() * Math.min(Math.max(share, 0.0), 1.0)));
    }

    /** The wait the server asked for, or null when it asked for none or wrote it in a form no RFC allows. */
    private Duration serverHint(Function<String, String> header) {
        String millis = trimmed(header.apply(RETRY_AFTER_MS));
        if (millis != null) {
            try {
                double value = Double.parseDouble(millis);
                if (value >= 0 && !Double.isInfinite(value)) {
                    return Duration.ofMillis((long) value);
                }
            } catch (NumberFormatException ignored) {
                // Not a number: fall through to Retry-After, as if the header were absent.
            }
        }
        String retryAfter = trimmed(header.apply(RETRY_AFTER));
        if (retryAfter == null) {
            return null;
        }
        if (retryAfter.matches("[0-9]{1,10}")) {
            return Duration.ofSeconds(Long.parseLong(retryAfter));
        }
        try {
            // IMF-fixdate, the form RFC 9110 requires senders to use; the two obsolete forms count as no hint.
            Instant at = ZonedDateTime.parse(retryAfter, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            Duration wait = Duration.between(clock.instant(), at);
            return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeException notADate) {
            return null;
        }
    }

    private static String trimmed(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public Duration maxTotalTime() {
        return maxTotalTime;
    }

    public Duration baseDelay() {
        return baseDelay;
    }

    public Duration maxDelay() {
        return maxDelay;
    }

    /** The clock that measures the total time and reads an HTTP-date {@code Retry-After}. */
    public Clock clock() {
        return clock;
    }

    /** How a retry loop waits between attempts. */
    public Sleeper sleeper() {
        return sleeper;
    }

    @Override
    public String toString() {
        return String.format(
                Locale.ROOT,
                "RetryPolicy[maxAttempts=%d, maxTotalTime=%s, baseDelay=%s, maxDelay=%s]",
                maxAttempts,
                maxTotalTime,
                baseDelay,
                maxDelay);
    }

    /**
     * Makes a {@link RetryPolicy}; each setter checks its value at once.
     *
     * <p>Not thread-safe: one builder per thread.
     */
    public static final class Builder {
        private int maxAttempts = DEFAULT_MAX_ATTEMPTS;
        private Duration maxTotalTime = DEFAULT_MAX_TOTAL_TIME;
        private Duration baseDelay = DEFAULT_BASE_DELAY;
        private Duration maxDelay = DEFAULT_MAX_DELAY;
        private Clock clock = Clock.systemUTC();
        private Sleeper sleeper = Sleeper.THREAD_SLEEP;
        private DoubleSupplier random = new Random()::nextDouble;

        private Builder() {}

        /**
         * The most attempts of one call, the first included; 1 turns retries off.
         *
         * @throws IllegalArgumentException if the number is below 1
         */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException(
                        "maxAttempts must be at least 1 (the first attempt), was " + maxAttempts);
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * The longest time from the first attempt's start to the last retry's start.
         *
         * @throws IllegalArgumentException if the time is null, zero or negative
         */
        public Builder maxTotalTime(Duration maxTotalTime) {
            this.maxTotalTime = positive("maxTotalTime", maxTotalTime);
            return this;
        }

        /**
         * The back-off before the first retry, doubled for each retry after it.
         *
         * @throws IllegalArgumentException if the delay is null, zero or negative
         */
        public Builder baseDelay(Duration baseDelay) {
            this.baseDelay = positive("baseDelay", baseDelay);
            return this;
        }

        /**
         * The cap of the doubled back-off.
         *
         * @throws IllegalArgumentException if the delay is null, zero or negative
         */
        public Builder maxDelay(Duration maxDelay) {
            this.maxDelay = positive("maxDelay", maxDelay);
            return this;
        }

        /**
         * The clock that measures the total time and reads an HTTP-date {@code Retry-After}; for tests.
         *
         * @throws IllegalArgumentException if the clock is null
         */
        public Builder clock(Clock clock) {
            this.clock = notNull("clock", clock);
            return this;
        }

        /**
         * How to wait between attempts; for tests, a fake that advances the clock.
         *
         * @throws IllegalArgumentException if the sleeper is null
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = notNull("sleeper", sleeper);
            return this;
        }

        /**
         * The source of jitter: each value, in [0, 1], is the share of the back-off to wait; for tests.
         *
         * @throws IllegalArgumentException if the source is null
         */
        public Builder random(DoubleSupplier random) {
            this.random = notNull("random", random);
            return this;
        }

        /**
         * The policy; the delays are compared here, so that they may be set in any order.
         *
         * @throws IllegalArgumentException if the base delay exceeds the largest delay
         */
        public RetryPolicy build() {
            if (baseDelay.compareTo(maxDelay) > 0) {
                throw new IllegalArgumentException(
                        "baseDelay (" + baseDelay + ") must not exceed maxDelay (" + maxDelay + ")");
            }
            return new RetryPolicy(this);
        }

        private static Duration positive(String name, Duration value) {
            if (value == null || value.isZero() || value.isNegative()) {
                throw new IllegalArgumentException(name + " must be a positive duration, was " + value);
            }
            return value;
        }

        private static <T> T notNull(String name, T value) {
            if (value == null) {
                throw new IllegalArgumentException(name + " must not be null");
            }
            return value;
        }
    }
}
