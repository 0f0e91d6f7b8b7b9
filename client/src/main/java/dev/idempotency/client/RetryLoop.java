package dev.idempotency.client;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;

/**
 * Sends one logical call until its {@link RetryPolicy} says stop, every attempt with the same key: the core of the
 * client adapters, and usable as it is with any client that exposes a status and headers.
 *
 * <pre>{@code
 * CallResult<HttpURLConnection> result = RetryLoop.run(RetryPolicy.defaults(), call -> {
 *     HttpURLConnection connection = (HttpURLConnection) url.openConnection();
 *     connection.setRequestMethod("POST");
 *     connection.setRequestProperty(IdempotentCall.KEY_HEADER, call.keyFor("POST " + url));
 *     ... write the body ...
 *     connection.getResponseCode();
 *     return connection;
 * }, HttpURLConnection::getResponseCode, HttpURLConnection::getHeaderField, HttpURLConnection::disconnect);
 * }</pre>
 *
 * <p>Stateless and thread-safe; each run belongs to the calling thread.
 */
public final class RetryLoop {
    private RetryLoop() {}

    /** One attempt: sends the request with the call's key and returns the answer. */
    @FunctionalInterface
    public interface Attempt<R> {
        R send(IdempotentCall call) throws IOException;
    }

    /** The status of an answer; may throw what the client throws while reading it. */
    @FunctionalInterface
    public interface Status<R> {
        int of(R response) throws IOException;
    }

    /** A header of an answer by name, case-insensitively, or null. */
    @FunctionalInterface
    public interface Header<R> {
        String of(R response, String name);
    }

    /** Frees an answer that is not handed back, such as the 503 before a retry. */
    @FunctionalInterface
    public interface Discard<R> {
        void of(R response);
    }

    /**
     * Runs the call in the thread's open {@link IdempotentCall}, or in one of its own: the first attempt, then a
     * retry for as long as the policy says, waiting with its sleeper.
     *
     * @return the last answer, whatever its status
     * @throws IOException the last attempt's I/O failure, when the policy stops after one
     * @throws RuntimeException the last attempt's failure, when the policy stops after one
     * @throws InterruptedIOException if the thread is interrupted while waiting to retry (its interrupt flag set)
     */
    public static <R> CallResult<R> run(
            RetryPolicy policy, Attempt<R> attempt, Status<R> status, Header<R> header, Discard<R> discard)
            throws IOException {
        try (IdempotentCall call = IdempotentCall.open()) {
            Instant start = policy.clock().instant();
            for (int attempts = 1; ; attempts++) {
                R response = null;
                RetryDecision decision;
                try {
                    response = attempt.send(call);
                    final R answer = response;
                    decision = policy.afterAnswer(
                            attempts, elapsedSince(policy, start), status.of(answer), name -> header.of(answer, name));
                } catch (IOException | RuntimeException failure) {
                    if (response != null) {
                        discard.of(response);
                    }
                    decision = policy.afterFailure(attempts, elapsedSince(policy, start), failure);
                    if (!decision.shouldRetry()) {
                        throw failure;
                    }
                    response = null;
                }
                if (!decision.shouldRetry()) {
                    final R answer = response;
                    call.recordAnswer(name -> header.of(answer, name));
                    return new CallResult<>(answer, call.keyIfFixed(), attempts, call.isReplayed(), decision);
                }
                if (response != null) {
                    discard.of(response);
                }
                waitBeforeRetry(policy, decision.delay());
            }
        }
    }

    private static Duration elapsedSince(RetryPolicy policy, Instant start) {
        return Duration.between(start, policy.clock().instant());
    }

    private static void waitBeforeRetry(RetryPolicy policy, Duration delay) throws InterruptedIOException {
        try {
            policy.sleeper().sleep(delay);
        } catch (InterruptedException interrupt) {
            Thread.currentThread().interrupt();
            InterruptedIOException stopped = new InterruptedIOException(
                    "interrupted while waiting " + delay.toMillis() + " ms to retry a keyed call");
            stopped.initCause(interrupt);
            throw stopped;
        }
    }
}
