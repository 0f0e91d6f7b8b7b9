package dev.idempotency.client;

import java.time.Duration;

/**
 * How a retry loop waits between attempts: {@link #THREAD_SLEEP} in production, a fake that only advances a clock
 * in tests, so that no test waits for real time.
 *
 * <p>Implementations must be thread-safe; {@link #THREAD_SLEEP} is.
 */
@FunctionalInterface
public interface Sleeper {
    /** Blocks the calling thread with {@link Thread#sleep(long)}. */
    Sleeper THREAD_SLEEP = delay -> Thread.sleep(delay.toMillis());

    /**
     * Waits for the given time.
     *
     * @throws InterruptedException if the thread is interrupted while waiting; the loop then stops retrying
     */
    void sleep(Duration delay) throws InterruptedException;
}
