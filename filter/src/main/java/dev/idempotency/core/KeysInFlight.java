package dev.idempotency.core;

import dev.idempotency.store.RequestResultId;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The keys this node is claiming or executing right now, so that a duplicate arriving on the same node waits
 * in memory, holding no database connection, until the request before it has ended.
 *
 * <p>Without it, every duplicate of a slow request would hold a pooled connection while its claim waits on
 * the key's row lock, and a retry storm on one key could take every connection from requests on other keys.
 * With it, each key holds at most one connection per node. The database still decides: a duplicate on
 * another node waits on the row lock as before, and a duplicate let through here claims like any request
 * (and normally finds the committed record).
 *
 * <p>Thread-safe.
 */
final class KeysInFlight {
    private final ConcurrentHashMap<RequestResultId, CountDownLatch> running = new ConcurrentHashMap<>();

    /**
     * Waits until no other request with this identity is in flight on this node, then marks this one as in
     * flight. A caller that entered must {@link #leave} once its transaction has ended.
     *
     * @param deadline a {@link System#nanoTime()} after which to stop waiting
     * @return whether this request entered; {@code false} if the deadline passed or the thread was
     *     interrupted (its interrupt status is then set again)
     */
    boolean enter(RequestResultId id, long deadline) {
        CountDownLatch mine = new CountDownLatch(1);
        try {
            for (CountDownLatch ahead = running.putIfAbsent(id, mine);
                    ahead != null;
                    ahead = running.putIfAbsent(id, mine)) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0 || !ahead.await(remaining, TimeUnit.NANOSECONDS)) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Lets the next duplicate on this node go ahead. */
    void leave(RequestResultId id) {
        CountDownLatch mine = running.remove(id);
        if (mine != null) {
            mine.countDown();
        }
    }

    /** How many identities are in flight on this node: for tests and diagnostics. */
    int size() {
        return running.size();
    }
}
