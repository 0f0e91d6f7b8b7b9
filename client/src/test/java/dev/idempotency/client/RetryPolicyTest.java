package dev.idempotency.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.MalformedURLException;
import java.net.NoRouteToHostException;
import java.net.ProtocolException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetryPolicyTest {
    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");
    private static final Duration NO_TIME = Duration.ZERO;

    private final FakeTime time = new FakeTime(NOW);
    private final Map<String, String> headers = new HashMap<>();

    /** Jitter fixed at the middle of its range, so a wait is exactly predictable. */
    private RetryPolicy policy(double jitter) {
        return RetryPolicy.builder().clock(time).random(() -> jitter).build();
    }

    private RetryDecision afterAnswer(RetryPolicy policy, int attemptsMade, Duration elapsed, int status) {
        Map<String, String> lowerCase = new HashMap<>();
        headers.forEach((name, value) -> lowerCase.put(name.toLowerCase(), value));
        Function<String, String> header = name -> lowerCase.get(name.toLowerCase());
        return policy.afterAnswer(attemptsMade, elapsed, status, header);
    }

    private RetryDecision afterAnswer(int status) {
        return afterAnswer(policy(0.5), 1, NO_TIME, status);
    }

    @ParameterizedTest
    @ValueSource(ints = {100, 200, 201, 204, 301, 304})
    void stopsOnAnAnswerBelow400(int status) {
        RetryDecision decision = afterAnswer(status);
        assertFalse(decision.shouldRetry(), decision::toString);
        assertEquals(Duration.ZERO, decision.delay());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 401, 403, 404, 405, 410, 413, 415, 422, 425, 500, 501, 505})
    void stopsOnAStatusARetryCannotChange(int status) {
        RetryDecision decision = afterAnswer(status);
        assertFalse(decision.shouldRetry(), decision::toString);
        assertEquals("status " + status + " is final", decision.reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {408, 409, 429, 502, 503, 504})
    void retriesAStatusThatMayChange(int status) {
        RetryDecision decision = afterAnswer(status);
        assertTrue(decision.shouldRetry(), decision::toString);
        assertEquals(Duration.ofMillis(250), decision.delay(), "half of the first back-off, 0.5 s");
    }

    @ParameterizedTest
    @ValueSource(ints = {200, 409, 503, 500, 422})
    void shouldRetryFalseWinsOverEverything(int status) {
        headers.put("x-should-retry", "false");
        headers.put("Retry-After", "1");
        RetryDecision decision = afterAnswer(status);
        assertFalse(decision.shouldRetry());
        assertEquals("x-should-retry: false", decision.reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 422, 500})
    void shouldRetryTrueRetriesAnErrorStatusOtherwiseFinal(int status) {
        headers.put("X-Should-Retry", "true");
        assertTrue(afterAnswer(status).shouldRetry());
    }

    @Test
    void shouldRetryTrueDoesNotRetryASuccess() {
        headers.put("x-should-retry", "true");
        assertFalse(afterAnswer(201).shouldRetry());
    }

    @Test
    void shouldRetryTrueStillKeepsTheAttemptBound() {
        headers.put("x-should-retry", "true");
        assertFalse(afterAnswer(policy(0.5), 3, NO_TIME, 500).shouldRetry());
    }

    @Test
    void waitsRetryAfterInSecondsPlusJitter() {
        headers.put("Retry-After", "2");
        assertEquals(
                Duration.ofMillis(2000),
                afterAnswer(policy(0.0), 1, NO_TIME, 503).delay());
        assertEquals(
                Duration.ofMillis(2250),
                afterAnswer(policy(0.5), 1, NO_TIME, 503).delay());
        assertEquals(
                Duration.ofMillis(2500),
                afterAnswer(policy(1.0), 1, NO_TIME, 503).delay());
    }

    @Test
    void waitsUntilAFutureRetryAfterDatePlusJitter() {
        headers.put("Retry-After", httpDate(NOW.plusSeconds(4)));
        assertEquals(
                Duration.ofMillis(4000),
                afterAnswer(policy(0.0), 1, NO_TIME, 503).delay());
        assertEquals(
                Duration.ofMillis(4250),
                afterAnswer(policy(0.5), 1, NO_TIME, 503).delay());
    }

    @Test
    void readsTheDateAsServersWriteIt() {
        headers.put("Retry-After", "Sat, 05 Dec 2026 10:00:03 GMT");
        assertEquals(
                Duration.ofMillis(3000),
                afterAnswer(policy(0.0), 1, NO_TIME, 503).delay());
    }

    @Test
    void takesAPastRetryAfterDateForNoWaitPlusJitter() {
        headers.put("Retry-After", httpDate(NOW.minusSeconds(60)));
        RetryDecision decision = afterAnswer(policy(0.5), 1, NO_TIME, 409);
        assertTrue(decision.shouldRetry());
        assertEquals(Duration.ofMillis(250), decision.delay());
    }

    @Test
    void takesAMalformedRetryAfterForNoHint() {
        headers.put("Retry-After", "soon");
        assertEquals(Duration.ofMillis(250), afterAnswer(503).delay());
        headers.put("Retry-After", "-3");
        assertEquals(Duration.ofMillis(250), afterAnswer(503).delay());
    }

    @Test
    void readsRetryAfterMsBeforeRetryAfter() {
        headers.put("retry-after-ms", "1200");
        headers.put("Retry-After", "9");
        assertEquals(
                Duration.ofMillis(1200),
                afterAnswer(policy(0.0), 1, NO_TIME, 409).delay());
        assertEquals(
                Duration.ofMillis(1450),
                afterAnswer(policy(0.5), 1, NO_TIME, 409).delay());
    }

    @Test
    void fallsBackToRetryAfterWhenRetryAfterMsIsNoNumber() {
        headers.put("retry-after-ms", "later");
        headers.put("Retry-After", "1");
        assertEquals(
                Duration.ofMillis(1000),
                afterAnswer(policy(0.0), 1, NO_TIME, 409).delay());
    }

    @Test
    void stopsWhenTheServerAsksToWaitPastTheTotalTime() {
        headers.put("Retry-After", "31");
        RetryDecision decision = afterAnswer(policy(0.0), 1, NO_TIME, 503);
        assertFalse(decision.shouldRetry());
        assertTrue(decision.reason().contains("asks to wait 31000 ms"), decision.reason());
    }

    @Test
    void cutsAJitteredWaitToEndAtTheTotalTime() {
        headers.put("Retry-After", "2");
        RetryDecision decision = afterAnswer(policy(1.0), 1, Duration.ofMillis(28_000), 503);
        assertTrue(decision.shouldRetry());
        assertEquals(Duration.ofMillis(2000), decision.delay());
    }

    @Test
    void stopsOnceTheTotalTimeHasPassed() {
        RetryDecision decision = afterAnswer(policy(0.5), 1, Duration.ofSeconds(30), 503);
        assertFalse(decision.shouldRetry());
        assertTrue(decision.reason().contains("has passed"), decision.reason());
    }

    @Test
    void stopsAtTheAttemptBound() {
        RetryPolicy policy = policy(0.5);
        assertTrue(afterAnswer(policy, 2, NO_TIME, 503).shouldRetry());
        RetryDecision third = afterAnswer(policy, 3, NO_TIME, 503);
        assertFalse(third.shouldRetry());
        assertTrue(third.reason().contains("3 attempts were made"), third.reason());
    }

    @Test
    void doublesTheBackOffPerRetryUpToTheCap() {
        RetryPolicy policy = RetryPolicy.builder()
                .maxAttempts(10)
                .maxTotalTime(Duration.ofMinutes(5))
                .random(() -> 1.0)
                .build();
        long[] expected = {500, 1000, 2000, 4000, 5000, 5000, 5000};
        for (int attemptsMade = 1; attemptsMade <= expected.length; attemptsMade++) {
            assertEquals(
                    Duration.ofMillis(expected[attemptsMade - 1]),
                    afterAnswer(policy, attemptsMade, NO_TIME, 503).delay(),
                    "after attempt " + attemptsMade);
        }
    }

    @Test
    void drawsEveryWaitBetweenZeroAndTheBackOff() {
        RetryPolicy policy = RetryPolicy.builder().build();
        for (int i = 0; i < 1_000; i++) {
            Duration delay = afterAnswer(policy, 2, NO_TIME, 503).delay();
            assertFalse(delay.isNegative(), delay::toString);
            assertTrue(delay.compareTo(Duration.ofMillis(1000)) <= 0, delay::toString);
        }
    }

    @Test
    void keepsARandomSourceOutsideZeroToOneInsideTheBackOff() {
        assertEquals(
                Duration.ofMillis(500),
                afterAnswer(policy(7.0), 1, NO_TIME, 503).delay());
        assertEquals(Duration.ZERO, afterAnswer(policy(-1.0), 1, NO_TIME, 503).delay());
    }

    // Failures without an answer.

    private RetryDecision afterFailure(Throwable failure) {
        return policy(0.5).afterFailure(1, NO_TIME, failure);
    }

    @Test
    void retriesAConnectionRefused() {
        RetryDecision decision = afterFailure(new ConnectException("Connection refused"));
        assertTrue(decision.shouldRetry(), decision::toString);
        assertEquals(Duration.ofMillis(250), decision.delay());
    }

    @Test
    void retriesATimeoutAfterTheRequestWasSent() {
        assertTrue(afterFailure(new SocketTimeoutException("Read timed out")).shouldRetry());
        assertTrue(afterFailure(new HttpTimeoutException("request timed out")).shouldRetry());
        assertTrue(afterFailure(new HttpConnectTimeoutException("connect timed out"))
                .shouldRetry());
    }

    @Test
    void retriesAnAnswerCutOff() {
        assertTrue(afterFailure(new SocketException("Connection reset")).shouldRetry());
        assertTrue(afterFailure(new SocketException("Unexpected end of file from server"))
                .shouldRetry());
        assertTrue(afterFailure(new EOFException()).shouldRetry());
        assertTrue(afterFailure(new NoRouteToHostException()).shouldRetry());
    }

    @Test
    void readsTheCauseOfAClientsWrapper() {
        RuntimeException processingException = new IllegalStateException(
                "RESTEASY004655: Unable to invoke request", new ConnectException("Connection refused"));
        assertTrue(afterFailure(processingException).shouldRetry());
    }

    @Test
    void stopsOnAFailureARetryCannotChange() {
        assertFalse(afterFailure(new UnknownHostException("pay.example")).shouldRetry());
        assertFalse(afterFailure(new SSLHandshakeException("PKIX path building failed"))
                .shouldRetry());
        assertFalse(afterFailure(new MalformedURLException("no protocol")).shouldRetry());
        assertFalse(afterFailure(new FileNotFoundException("http://service/orders/7"))
                .shouldRetry());
        assertFalse(afterFailure(new ProtocolException("Server redirected too many times"))
                .shouldRetry());
        assertFalse(afterFailure(new IllegalStateException("wrapped", new UnknownHostException("x")))
                .shouldRetry());
    }

    @Test
    void stopsOnAnInterrupt() {
        RetryDecision decision = afterFailure(new InterruptedIOException("interrupted"));
        assertFalse(decision.shouldRetry());
        assertEquals("java.io.InterruptedIOException does not change on a retry", decision.reason());
    }

    @Test
    void stopsOnAFailureWithNoIoCause() {
        RetryDecision decision = afterFailure(new IllegalArgumentException("bad entity"));
        assertFalse(decision.shouldRetry());
        assertEquals("java.lang.IllegalArgumentException is no I/O failure", decision.reason());
    }

    @Test
    void boundsFailuresToo() {
        assertFalse(policy(0.5).afterFailure(3, NO_TIME, new ConnectException()).shouldRetry());
        assertFalse(policy(0.5)
                .afterFailure(1, Duration.ofSeconds(31), new IOException())
                .shouldRetry());
    }

    // The builder.

    @Test
    void hasTheDocumentedDefaults() {
        RetryPolicy defaults = RetryPolicy.defaults();
        assertEquals(3, defaults.maxAttempts());
        assertEquals(Duration.ofSeconds(30), defaults.maxTotalTime());
        assertEquals(Duration.ofMillis(500), defaults.baseDelay());
        assertEquals(Duration.ofSeconds(5), defaults.maxDelay());
    }

    @Test
    void refusesBadValuesNamingThem() {
        assertEquals(
                "maxAttempts must be at least 1 (the first attempt), was 0",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder()
                                .maxAttempts(0))
                        .getMessage());
        assertEquals(
                "maxTotalTime must be a positive duration, was PT-1S",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder()
                                .maxTotalTime(Duration.ofSeconds(-1)))
                        .getMessage());
        assertEquals(
                "baseDelay must be a positive duration, was PT0S",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder()
                                .baseDelay(Duration.ZERO))
                        .getMessage());
        assertEquals(
                "maxDelay must be a positive duration, was null",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder()
                                .maxDelay(null))
                        .getMessage());
        assertEquals(
                "baseDelay (PT6S) must not exceed maxDelay (PT5S)",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder()
                                .baseDelay(Duration.ofSeconds(6))
                                .build())
                        .getMessage());
        assertEquals(
                "clock must not be null",
                assertThrows(IllegalArgumentException.class, () -> RetryPolicy.builder()
                                .clock(null))
                        .getMessage());
    }

    @Test
    void takesTheDelaysInEitherOrder() {
        RetryPolicy small = RetryPolicy.builder()
                .maxDelay(Duration.ofMillis(400))
                .baseDelay(Duration.ofMillis(50))
                .build();
        assertEquals(Duration.ofMillis(400), small.maxDelay());
        assertEquals(Duration.ofMillis(50), small.baseDelay());
    }

    @Test
    void changesOneValueOfAPolicy() {
        RetryPolicy five = RetryPolicy.defaults().toBuilder().maxAttempts(5).build();
        assertEquals(5, five.maxAttempts());
        assertEquals(Duration.ofSeconds(30), five.maxTotalTime());
    }

    private static String httpDate(Instant at) {
        // IMF-fixdate, as RFC 9110 has senders write it: "Sat, 05 Dec 2026 10:00:04 GMT".
        return DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
                .format(at.atOffset(ZoneOffset.UTC));
    }
}
