package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.store.KeylessDayStore;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.testing.H2Database;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The purge of expired records, in batches of its own transactions, on a real H2 with local transactions. */
class ExpiredRecordPurgeTest {
    private static final int BATCH = 2;

    private final H2Database database = new H2Database();
    private final RequestResultStore store = new RequestResultStore(database.transactions(), H2Database.DIALECT);
    private final ExpiredRecordPurge purge = new ExpiredRecordPurge(
            database.transactions(),
            store,
            new KeylessDayStore(database.transactions(), H2Database.DIALECT),
            BATCH,
            90);

    @Test
    void everyExpiredRecordGoesInBatchesAndTheOthersStay() throws Exception {
        for (int i = 0; i < 5; i++) {
            claim("expired-" + i);
        }
        claim("current");
        database.execute("UPDATE request_result SET expires_at = DATEADD('DAY', -2, CURRENT_TIMESTAMP)"
                + " WHERE request_key LIKE 'expired-%'");

        purge.run();

        assertEquals(0, records("expired-%"), "five expired records, in batches of two");
        assertEquals(1, records("current"));
    }

    @Test
    void aFailedPurgeThrowsNothingAndTheNextOneDeletes() throws Exception {
        claim("expired");
        database.execute("UPDATE request_result SET expires_at = DATEADD('DAY', -2, CURRENT_TIMESTAMP)");
        database.execute("ALTER TABLE request_result RENAME TO request_result_away");

        assertDoesNotThrow(purge::run);

        database.execute("ALTER TABLE request_result_away RENAME TO request_result");
        purge.run();
        assertEquals(0, records("expired"));
    }

    private void claim(String key) {
        database.transactions()
                .inTransaction(() -> store.claim(
                        new RequestResultId("alice", "debit:v1", key), "{}", Duration.ofHours(1), Duration.ZERO));
    }

    private long records(String keyPattern) throws Exception {
        return database.count("SELECT count(*) FROM request_result WHERE request_key LIKE '" + keyPattern + "'");
    }
}
