package dev.idempotency.rollout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProbableDuplicatesTest {
    private static final KeylessTelemetry.Client BOB = new KeylessTelemetry.Client("bob", "openai");
    private static final KeylessTelemetry.Client ALICE = new KeylessTelemetry.Client("alice", "openai");

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final ProbableDuplicates duplicates = new ProbableDuplicates(Duration.ofSeconds(10), 3, nanos::get);

    private static KeylessRequest debit(String retryCount) {
        return new KeylessRequest("POST", "/api/accounts/7/debits", null, "application/json", 17, retryCount);
    }

    private static KeylessRequest debitOf(long contentLength) {
        return new KeylessRequest("POST", "/api/accounts/7/debits", null, "application/json", contentLength, null);
    }

    @Test
    void aStainlessRetryCountOfOneOrMoreIsAProbableDuplicateEvenTheFirstTimeItsShapeIsSeen() {
        assertTrue(duplicates.isProbableDuplicate(BOB, debit("1")));
        assertTrue(duplicates.isProbableDuplicate(ALICE, new KeylessRequest("POST", "/x", "a=1", null, -1, " 2 ")));
    }

    @Test
    void aFirstAttemptMarkedZeroOrAMalformedMarkerIsNot() {
        assertFalse(duplicates.isProbableDuplicate(BOB, debit("0")));
        assertFalse(duplicates.isProbableDuplicate(ALICE, debit("many")));
        assertFalse(new KeylessRequest("POST", "/x", null, null, -1, "-1").markedAsRetry());
    }

    @Test
    void theSameRequestOfOneClientWithinTheWindowIsAProbableDuplicate() {
        assertFalse(duplicates.isProbableDuplicate(BOB, debit(null)));
        nanos.addAndGet(Duration.ofSeconds(10).toNanos());

        assertTrue(duplicates.isProbableDuplicate(BOB, debit(null)));
    }

    @Test
    void theSameRequestAfterTheWindowIsNot() {
        assertFalse(duplicates.isProbableDuplicate(BOB, debit(null)));
        nanos.addAndGet(Duration.ofSeconds(10).toNanos() + 1);

        assertFalse(duplicates.isProbableDuplicate(BOB, debit(null)));
    }

    @Test
    void anotherClientOrAnotherShapeIsNot() {
        assertFalse(duplicates.isProbableDuplicate(BOB, debit(null)));

        assertFalse(duplicates.isProbableDuplicate(ALICE, debit(null)));
        assertFalse(duplicates.isProbableDuplicate(BOB, debitOf(18)));
        assertFalse(duplicates.isProbableDuplicate(
                BOB, new KeylessRequest("POST", "/api/accounts/8/debits", null, "application/json", 17, null)));
    }

    @Test
    void pastItsCapacityTheLeastRecentlySeenShapeIsForgotten() {
        duplicates.isProbableDuplicate(BOB, debitOf(1));
        duplicates.isProbableDuplicate(BOB, debitOf(2));
        duplicates.isProbableDuplicate(BOB, debitOf(3));
        duplicates.isProbableDuplicate(BOB, debitOf(4)); // capacity 3: forgets length 1

        assertTrue(duplicates.isProbableDuplicate(BOB, debitOf(4)));
        assertFalse(duplicates.isProbableDuplicate(BOB, debitOf(1)));
    }
}
