package dev.idempotency.sample.faults;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named gates inside the application, so that a test can order two requests without sleeping: a request holds at
 * its gate (while its transaction holds the key's claim) until the test, having seen it arrive and having put the
 * duplicate in place, opens the gate. One set per deployment, in its class loader.
 *
 * <p>Thread-safe.
 */
public final class Gates {
    /** Long enough for any test step, short enough that a forgotten gate fails the test instead of hanging it. */
    static final long HOLD_LIMIT_SECONDS = 60;

    private static final Map<String, Gate> GATES = new ConcurrentHashMap<>();

    private Gates() {}

    /**
     * Holds the calling request at the named gate until it is opened.
     *
     * @throws IllegalStateException if nobody opened it within {@link #HOLD_LIMIT_SECONDS}
     */
    public static void holdAt(String name) throws InterruptedException {
        Gate gate = gate(name);
        gate.arrived.incrementAndGet();
        if (!gate.open.await(HOLD_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("gate " + name + " was never opened");
        }
    }

    /** How many requests have reached the named gate so far. */
    public static int arrivedAt(String name) {
        return gate(name).arrived.get();
    }

    /** Lets every request held at the named gate, and every later one, through. */
    public static void open(String name) {
        gate(name).open.countDown();
    }

    private static Gate gate(String name) {
        return GATES.computeIfAbsent(name, unused -> new Gate());
    }

    private static final class Gate {
        final AtomicInteger arrived = new AtomicInteger();
        final CountDownLatch open = new CountDownLatch(1);
    }
}
