package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The SQL Server statements' text: what this build can check of a dialect it cannot run. Whether SQL Server
 * behaves as the text intends is for the store check on a real server.
 */
class SqlServerDialectTest {
    private final SqlDialect sqlServer = Engine.dialectNamed("sqlserver");

    @Test
    void claimInsertsUnlessARangeLockedReadFindsTheIdentity() {
        String claim = sqlServer.claimStatement().toString();

        assertTrue(claim.startsWith("INSERT INTO request_result ("), claim);
        assertTrue(
                claim.contains("WHERE NOT EXISTS (SELECT 1 FROM request_result WITH (UPDLOCK, HOLDLOCK) WHERE scope ="
                        + " :scope AND operation = :operation AND request_key = :requestKey)"),
                claim);
        assertTrue(claim.contains("SYSUTCDATETIME()"), claim);
        assertTrue(claim.contains("DATEADD(SECOND, CAST(:retentionSeconds AS INT), SYSUTCDATETIME())"), claim);
        assertEquals(
                List.of(
                        "scope",
                        "operation",
                        "requestKey",
                        "request",
                        "retentionSeconds",
                        "scope",
                        "operation",
                        "requestKey"),
                sqlServer.claimStatement().parameters());
    }

    @Test
    void messageClaimInsertsUnlessARangeLockedReadFindsTheMessage() {
        String claim = sqlServer.claimMessageStatement().toString();

        assertTrue(claim.startsWith("INSERT INTO processed_message ("), claim);
        assertTrue(
                claim.contains("WHERE NOT EXISTS (SELECT 1 FROM processed_message WITH (UPDLOCK, HOLDLOCK)"
                        + " WHERE subscriber = :subscriber AND message_id = :messageId)"),
                claim);
        assertEquals(
                List.of("subscriber", "messageId", "payload", "localObject", "subscriber", "messageId"),
                sqlServer.claimMessageStatement().parameters());
    }

    @Test
    void purgesDeleteABoundedBatchSkippingHeldRows() {
        String requests = sqlServer.purgeExpiredRequestsStatement().toString();
        String messages = sqlServer.purgeProcessedMessagesStatement().toString();

        assertTrue(requests.startsWith("DELETE TOP (:batchSize) FROM request_result WITH (READPAST)"), requests);
        assertTrue(requests.contains("expires_at < SYSUTCDATETIME()"), requests);
        assertTrue(messages.startsWith("DELETE TOP (:batchSize) FROM processed_message WITH (READPAST)"), messages);
        assertEquals(
                List.of("batchSize", "retentionSeconds"),
                sqlServer.purgeProcessedMessagesStatement().parameters());
    }

    @Test
    void upsertsAreMergesHoldingTheirRangeAndEndInASemicolon() {
        for (SqlStatement upsert : List.of(sqlServer.upsertRolloutStatement(), sqlServer.addToCounterStatement())) {
            String text = upsert.toString();
            assertTrue(text.startsWith("MERGE INTO idempotency_"), text);
            assertTrue(text.contains(" WITH (HOLDLOCK) AS t USING ("), text);
            assertTrue(text.contains("WHEN MATCHED THEN UPDATE"), text);
            assertTrue(text.contains("WHEN NOT MATCHED THEN INSERT"), text);
            assertTrue(text.endsWith(");"), text);
        }
        assertTrue(sqlServer.addToCounterStatement().toString().contains("count = t.count + s.amount"));
        assertEquals(
                List.of("operation", "counter", "principal", "userAgent", "amount"),
                sqlServer.addToCounterStatement().parameters());
        assertEquals(
                List.of("operation", "mode", "changedBy"),
                sqlServer.upsertRolloutStatement().parameters());
    }

    @Test
    void timesAreWrittenInUtc() {
        assertTrue(sqlServer.insertRolloutHistoryStatement().toString().contains("SYSUTCDATETIME()"));
        for (SqlStatement statement : List.of(
                sqlServer.claimStatement(),
                sqlServer.claimMessageStatement(),
                sqlServer.upsertRolloutStatement(),
                sqlServer.addToCounterStatement(),
                sqlServer.insertRolloutHistoryStatement())) {
            assertTrue(!statement.toString().contains("CURRENT_TIMESTAMP"), statement.toString());
        }
    }

    @Test
    void refusesAnIdentityPartEndingInASpaceWhichItsEqualsIgnores() {
        Optional<String> refused = sqlServer.refusedIdentityPart("key ");

        assertTrue(refused.orElseThrow().contains("ends with a space"), refused.get());
        assertEquals(Optional.empty(), sqlServer.refusedIdentityPart("key"));
        assertEquals(Optional.empty(), sqlServer.refusedIdentityPart(" key"));
        assertEquals(Optional.empty(), sqlServer.refusedIdentityPart("k e y"));
        assertEquals(Optional.empty(), Engine.dialectNamed("postgresql").refusedIdentityPart("key "));
        assertEquals(Optional.empty(), Engine.dialectNamed("oracle").refusedIdentityPart("key "));
    }

    @Test
    void keyColumnsHold255Characters() {
        assertEquals(OptionalInt.of(255), sqlServer.maxIdentityLength());
    }

    @Test
    void theStoreChecksScratchSchemaIsADatabase() {
        assertEquals(
                List.of("CREATE DATABASE idempotency_check_1"),
                sqlServer.createSchemaStatements("idempotency_check_1"));
        assertEquals(
                List.of(
                        "ALTER DATABASE idempotency_check_1 SET SINGLE_USER WITH ROLLBACK IMMEDIATE",
                        "DROP DATABASE idempotency_check_1"),
                sqlServer.dropSchemaStatements("idempotency_check_1"));
    }
}
