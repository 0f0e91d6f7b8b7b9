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
 * <p>A duplicate that must not wait ({@code concurrent=reject}) is refused here only when the request ahead has
 * claimed the key, so is executing: a request ahead that is still claiming may be a retry that will only replay a
 * committed record, and refusing beside it would refuse a finished request. Such a duplicate goes to the
 * database, whose claim refuses only a key an uncommitted execution holds.
 *
 * <p>Thread-safe.
 */
final class KeysInFlight {
    /** What a duplicate that must not wait is told. */
    enum Admission {
        /** No request with this identity is in flight here: this one is, and must {@link #leave}. */
        ENTERED,
        /** The request ahead is still claiming: this one claims at the database too, and must not leave. */
        ALONGSIDE,
        /** The request ahead has claimed the key and is executing: refuse this one. */
        REFUSED
    }

    /** The request in flight with one identity. */
    private static final class Holder {
        final CountDownLatch left = new CountDownLatch(1);
        volatile boolean claimed;
    }

    private final ConcurrentHashMap<RequestResultId, Holder> running = new ConcurrentHashMap<>();

    /**
     * Waits until no other request with this identity is in flight on this node, then marks this one as in
     * flight. A caller that entered must {@link #leave} once its transaction has ended.
     *
     * @param deadline a {@link System#nanoTime()} after which to stop waiting
     * @return whether this request entered; {@code false} if the deadline passed or the thread was
     *     interrupted (its interrupt status is then set again)
     */
    boolean enter(RequestResultId id, long deadline) {
        Holder mine = new Holder();
        try {
            for (Holder ahead = running.putIfAbsent(id, mine); ahead != null; ahead = running.putIfAbsent(id, mine)) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0 || !ahead.left.await(remaining, TimeUnit.NANOSECONDS)) {
                    return false;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** For a duplicate that must not wait: enters if it can, and is refused only beside an execution. */
    Admission enterWithoutWaiting(RequestResultId id) {
        Holder ahead = running.putIfAbsent(id, new Holder());
        if (ahead == null) {
            return Admission.ENTERED;
        }
        return ahead.claimed ? Admission.REFUSED : Admission.ALONGSIDE;
    }

    /** Tells duplicates on this node that the request that entered with {@code id} holds its claim now. */
    void claimed(RequestResultId id) {
        Holder mine = running.get(id);
        if (mine != null) {
            mine.claimed = true;
        }
    }

    /** Lets the next duplicate on this node go ahead. */
    void leave(RequestResultId id) {
        Holder mine = running.remove(id);
        if (mine != null) {
            mine.left.countDown();
        }
    }

    /** How many identities are in flight on this node: for tests and diagnostics. */
    int size() {
        return running.size();
    }
}
