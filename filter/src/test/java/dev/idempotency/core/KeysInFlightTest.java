package dev.idempotency.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.store.RequestResultId;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class KeysInFlightTest {
    private static final RequestResultId KEY = new RequestResultId("alice", "debit:v1", "k1");

    private final KeysInFlight keys = new KeysInFlight();

    @Test
    void aDuplicateWaitsUntilTheRequestAheadLeaves() throws Exception {
        assertTrue(keys.enter(KEY, deadlineIn(1_000)));
        CompletableFuture<Boolean> duplicate = new CompletableFuture<>();
        Thread duplicateThread = new Thread(() -> duplicate.complete(keys.enter(KEY, deadlineIn(60_000))));
        duplicateThread.start();
        // Parked on the request ahead, seen from outside: no sleep decides whether it has arrived.
        while (duplicateThread.getState() != Thread.State.TIMED_WAITING) {
            assertFalse(duplicate.isDone(), "the duplicate must wait while the key is in flight");
            Thread.onSpinWait();
        }
        assertFalse(duplicate.isDone(), "the duplicate must wait while the key is in flight");

        keys.leave(KEY);

        assertTrue(duplicate.get());
        keys.leave(KEY);
        assertEquals(0, keys.size());
    }

    @Test
    void aDuplicateGivesUpAtItsDeadline() {
        assertTrue(keys.enter(KEY, deadlineIn(1_000)));

        assertFalse(keys.enter(KEY, deadlineIn(50)));
        assertEquals(1, keys.size(), "the request ahead is still in flight");
    }

    @Test
    void otherIdentitiesDoNotWait() {
        assertTrue(keys.enter(KEY, deadlineIn(1_000)));

        assertTrue(keys.enter(new RequestResultId("bob", "debit:v1", "k1"), deadlineIn(0)));
        assertTrue(keys.enter(new RequestResultId("alice", "debit:v1", "k2"), deadlineIn(0)));
    }

    @Test
    void aDuplicateThatMustNotWaitGoesAlongsideARequestStillClaimingAndIsRefusedBesideAnExecution() {
        assertEquals(KeysInFlight.Admission.ENTERED, keys.enterWithoutWaiting(KEY));

        assertEquals(KeysInFlight.Admission.ALONGSIDE, keys.enterWithoutWaiting(KEY));
        keys.claimed(KEY);
        assertEquals(KeysInFlight.Admission.REFUSED, keys.enterWithoutWaiting(KEY));

        keys.leave(KEY);
        assertEquals(0, keys.size(), "a duplicate alongside or refused never entered");
        assertEquals(KeysInFlight.Admission.ENTERED, keys.enterWithoutWaiting(KEY));
    }

    private static long deadlineIn(long millis) {
        return System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    }
}
