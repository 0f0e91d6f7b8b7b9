package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.tx.LocalTransactions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Erasure on a real H2: by a principal's name, and by the raw scope-header value the operator knows. */
class IdempotencyRecordsTest {
    private static final SqlDialect H2 = Engine.dialectNamed("h2");
    private static final String API_KEY = "Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc";

    private final String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final LocalTransactions transactions =
            new LocalTransactions(() -> DriverManager.getConnection(url), H2, null);
    private final RequestResultStore store = new RequestResultStore(transactions, H2);

    IdempotencyRecordsTest() {
        new FilterSchema(transactions, H2, "the test database").createMissing();
    }

    private void record(String scope, String key) {
        RequestResultId id = new RequestResultId(scope, "debit:v1", key);
        transactions.begin(Optional.empty());
        try {
            store.claim(id, "{}", Duration.ofHours(1), Duration.ofSeconds(1));
            store.complete(id, new StoredResponse(201, Map.of(), new byte[0]));
            transactions.commit();
        } finally {
            transactions.rollback();
        }
    }

    private int recordsOf(String scope) throws SQLException {
        try (Connection connection = transactions.getConnection();
                PreparedStatement count =
                        connection.prepareStatement("SELECT COUNT(*) FROM request_result WHERE scope = ?")) {
            count.setString(1, scope);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    @Test
    void erasesAPrincipalsRecordsOnly() throws SQLException {
        record("alice", "k1");
        record("alice", "k2");
        record("bob", "k1");

        assertEquals(2, IdempotencyRecords.in(transactions).eraseScope("alice"));

        assertEquals(0, recordsOf("alice"));
        assertEquals(1, recordsOf("bob"));
    }

    @Test
    void erasesAHeaderCallerByTheRawValueUnderItsDigestAndUnderTheOldForm() throws SQLException {
        record(IdempotencyRecords.headerScope(API_KEY), "k1");
        record("header:" + API_KEY, "k0"); // written by a release before the digest
        record(IdempotencyRecords.headerScope("Bearer sk_test_other"), "k1");

        assertEquals(2, IdempotencyRecords.in(transactions).eraseHeaderScope(API_KEY));

        assertEquals(0, recordsOf(IdempotencyRecords.headerScope(API_KEY)));
        assertEquals(0, recordsOf("header:" + API_KEY));
        assertEquals(1, recordsOf(IdempotencyRecords.headerScope("Bearer sk_test_other")));
    }

    @Test
    void erasesUnderTheFiltersKeyWhenGivenIt() throws SQLException {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) 7);
        String scope = IdempotencyRecords.headerScope(API_KEY, key);
        record(scope, "k1");

        assertEquals(0, IdempotencyRecords.in(transactions).eraseHeaderScope(API_KEY));
        assertEquals(
                1, IdempotencyRecords.in(transactions).withScopeHeaderKey(key).eraseHeaderScope(API_KEY));

        assertEquals(0, recordsOf(scope));
    }
}
