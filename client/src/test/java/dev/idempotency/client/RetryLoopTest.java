package dev.idempotency.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RetryLoopTest {
    private final FakeTime time = new FakeTime(Instant.parse("2026-12-05T10:00:00Z"));
    private final RetryPolicy policy = RetryPolicy.builder()
            .clock(time)
            .sleeper(time.sleeper)
            .random(() -> 0.5)
            .build();

    /** A scripted server: each attempt takes the next answer or failure, and the key it was sent with is kept. */
    private final Deque<Object> script = new ArrayDeque<>();

    private final List<String> keysSent = new ArrayList<>();
    private final List<Answer> discarded = new ArrayList<>();

    private static final class Answer {
        final int status;
        final Map<String, String> headers;

        Answer(int status, Map<String, String> headers) {
            this.status = status;
            this.headers = headers;
        }
    }

    private CallResult<Answer> run() throws IOException {
        return run(policy);
    }

    private CallResult<Answer> run(RetryPolicy policy) throws IOException {
        return RetryLoop.run(
                policy,
                call -> {
                    keysSent.add(call.keyFor("POST http://service/debits"));
                    Object next = script.removeFirst();
                    if (next instanceof IOException) {
                        throw (IOException) next;
                    }
                    return (Answer) next;
                },
                answer -> answer.status,
                (answer, name) -> answer.headers.get(name),
                discarded::add);
    }

    @Test
    void sendsEveryRetryWithTheSameKeyAndReturnsTheLastAnswer() throws IOException {
        Answer created = new Answer(201, Map.of("Idempotent-Replayed", "true"));
        script.add(new SocketTimeoutException("Read timed out"));
        script.add(new Answer(409, Map.of("Retry-After", "1")));
        script.add(created);

        CallResult<Answer> result = run();

        assertSame(created, result.response());
        assertEquals(3, result.attempts());
        assertTrue(result.isReplayed());
        assertEquals(3, keysSent.size());
        assertEquals(1, keysSent.stream().distinct().count(), keysSent::toString);
        assertEquals(keysSent.get(0), result.key());
        assertEquals(List.of(Duration.ofMillis(250), Duration.ofMillis(1500)), time.sleeps);
        assertEquals(1, discarded.size(), "the 409 was freed before the retry");
    }

    @Test
    void givesTheNextLogicalCallANewKey() throws IOException {
        script.add(new Answer(201, Map.of()));
        script.add(new Answer(201, Map.of()));
        String first = run().key();
        String second = run().key();
        assertNotEquals(first, second);
    }

    @Test
    void joinsACallTheCallerOpenedSoItsOwnRetriesKeepTheKey() throws IOException {
        try (IdempotentCall call = IdempotentCall.open()) {
            script.add(new ConnectException());
            script.add(new Answer(503, Map.of()));
            script.add(new Answer(201, Map.of()));
            assertEquals(call.key(), run().key());
            script.add(new Answer(201, Map.of()));
            assertEquals(call.key(), run().key(), "a second run in the same call, such as a caller's own retry");
        }
        assertEquals(1, keysSent.stream().distinct().count(), keysSent::toString);
    }

    @Test
    void returnsAFinalAnswerAtOnce() throws IOException {
        script.add(new Answer(422, Map.of()));
        CallResult<Answer> result = run();
        assertEquals(422, result.response().status);
        assertEquals(1, result.attempts());
        assertFalse(result.isReplayed());
        assertEquals("status 422 is final", result.lastDecision().reason());
        assertEquals(List.of(), time.sleeps);
    }

    @Test
    void returnsTheLastRetriableAnswerAtTheAttemptBound() throws IOException {
        for (int i = 0; i < 3; i++) {
            script.add(new Answer(503, Map.of()));
        }
        CallResult<Answer> result = run();
        assertEquals(503, result.response().status);
        assertEquals(3, result.attempts());
        assertEquals(2, time.sleeps.size());
    }

    @Test
    void stopsAtTheTotalTimeBound() throws IOException {
        RetryPolicy fiveSeconds = policy.toBuilder()
                .maxAttempts(100)
                .maxTotalTime(Duration.ofSeconds(5))
                .build();
        for (int i = 0; i < 100; i++) {
            script.add(new Answer(503, Map.of("Retry-After", "2")));
        }
        CallResult<Answer> result = run(fiveSeconds);
        // Waits of 2.25 s and 2.5 s; a third (2 s asked) would pass 5 s.
        assertEquals(3, result.attempts());
        assertTrue(result.lastDecision().reason().contains("past the total time"), result.lastDecision()::toString);
    }

    @Test
    void throwsTheLastFailureWhenItStops() {
        UnknownHostException unknown = new UnknownHostException("service");
        script.add(new ConnectException());
        script.add(unknown);
        assertSame(unknown, assertThrows(UnknownHostException.class, this::run));
        assertEquals(2, keysSent.size());
    }

    @Test
    void stopsWaitingWhenInterrupted() {
        RetryPolicy interrupted = policy.toBuilder()
                .sleeper(delay -> {
                    throw new InterruptedException();
                })
                .build();
        script.add(new Answer(503, Map.of()));
        try {
            assertThrows(InterruptedIOException.class, () -> run(interrupted));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
        assertEquals(1, discarded.size());
    }
}
