package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * The Oracle statements' text: what this build can check of a dialect it cannot run. Whether Oracle behaves as
 * the text intends is for the store check on a real database.
 */
class OracleDialectTest {
    private static final String NOW = "SYS_EXTRACT_UTC(SYSTIMESTAMP)";

    private final SqlDialect oracle = Engine.dialectNamed("oracle");

    @Test
    void claimIsAPlainInsertWhoseDuplicateWaitsThenRaisesOra00001() {
        String claim = oracle.claimStatement().toString();

        assertTrue(claim.startsWith("INSERT INTO request_result (scope, operation, request_key, request,"), claim);
        assertTrue(claim.contains("NUMTODSINTERVAL(:retentionSeconds, 'SECOND')"), claim);
        assertTrue(claim.contains(NOW), claim);
        assertFalse(claim.contains("MERGE"), claim);
        assertFalse(claim.endsWith(";"), claim);
        assertEquals(
                List.of("scope", "operation", "requestKey", "request", "retentionSeconds"),
                oracle.claimStatement().parameters());
        assertEquals(
                List.of("subscriber", "messageId", "payload", "localObject"),
                oracle.claimMessageStatement().parameters());
    }

    @Test
    void recordsAreFoundByTheirIdentityAlsoComparedByteByByte() {
        for (SqlStatement statement : List.of(
                oracle.selectRequestResultStatement(), oracle.completeStatement(), oracle.deleteScopeStatement())) {
            assertTrue(
                    statement
                            .toString()
                            .contains("scope = :scope AND NLSSORT(scope, 'NLS_SORT=BINARY')"
                                    + " = NLSSORT(:scope, 'NLS_SORT=BINARY')"),
                    statement.toString());
        }
        String select = oracle.selectRequestResultStatement().toString();
        assertTrue(
                select.contains("request_key = :requestKey AND NLSSORT(request_key, 'NLS_SORT=BINARY')"
                        + " = NLSSORT(:requestKey, 'NLS_SORT=BINARY')"),
                select);
        assertEquals(
                List.of("scope", "scope", "operation", "operation", "requestKey", "requestKey"),
                oracle.selectRequestResultStatement().parameters());
        assertTrue(
                oracle.selectMessagePayloadStatement().toString().contains("NLSSORT(message_id, 'NLS_SORT=BINARY')"));
    }

    @Test
    void purgesDeleteABoundedBatchByRowid() {
        String requests = oracle.purgeExpiredRequestsStatement().toString();
        String messages = oracle.purgeProcessedMessagesStatement().toString();

        assertTrue(
                requests.startsWith("DELETE FROM request_result WHERE ROWID IN (SELECT ROWID FROM request_result"),
                requests);
        assertTrue(requests.contains("expires_at < " + NOW + " FETCH FIRST :batchSize ROWS ONLY)"), requests);
        assertTrue(
                messages.contains("processed_at < " + NOW + " - NUMTODSINTERVAL(:retentionSeconds, 'SECOND')"),
                messages);
        assertTrue(messages.contains("FETCH FIRST :batchSize ROWS ONLY"), messages);
    }

    @Test
    void upsertsAreMergesFromDualAndTheCounterMatchesEmptyAsNull() {
        String rollout = oracle.upsertRolloutStatement().toString();
        String counter = oracle.addToCounterStatement().toString();

        assertTrue(
                rollout.startsWith("MERGE INTO idempotency_rollout t USING (SELECT :operation AS operation"), rollout);
        assertTrue(rollout.contains("FROM DUAL) s ON (t.operation = s.operation)"), rollout);
        assertTrue(rollout.contains("t.\"MODE\" = s.m"), rollout);
        assertTrue(counter.contains("DECODE(t.principal, s.principal, 1, 0) = 1"), counter);
        assertTrue(counter.contains("DECODE(t.user_agent, s.user_agent, 1, 0) = 1"), counter);
        assertTrue(counter.contains("t.count = t.count + s.amount"), counter);
        assertFalse(rollout.endsWith(";") || counter.endsWith(";"), "ojdbc refuses a trailing semicolon");
    }

    @Test
    void theReservedModeIsQuotedWhereverItIsNamed() {
        assertEquals("\"MODE\"", oracle.column("mode"));
        assertEquals("operation", oracle.column("operation"));
        assertEquals("mode", Engine.dialectNamed("postgresql").column("mode"));
        for (SqlStatement statement : List.of(
                oracle.selectRolloutStatement(),
                oracle.upsertRolloutStatement(),
                oracle.insertRolloutHistoryStatement())) {
            assertFalse(statement.toString().matches("(?s).*[ (,]mode[ ,=].*"), statement.toString());
            assertTrue(statement.toString().contains("\"MODE\""), statement.toString());
        }
    }

    @Test
    void timesAreWrittenInUtc() {
        for (SqlStatement statement : List.of(
                oracle.claimStatement(),
                oracle.claimMessageStatement(),
                oracle.upsertRolloutStatement(),
                oracle.addToCounterStatement(),
                oracle.insertRolloutHistoryStatement())) {
            assertTrue(statement.toString().contains(NOW), statement.toString());
            assertFalse(statement.toString().contains("CURRENT_TIMESTAMP"), statement.toString());
        }
    }

    @Test
    void keyColumnsHold255Characters() {
        assertEquals(OptionalInt.of(255), oracle.maxIdentityLength());
    }

    @Test
    void theStoreChecksScratchSchemaIsAUser() {
        assertEquals(
                List.of(
                        "CREATE USER idempotency_check_1 NO AUTHENTICATION",
                        "GRANT UNLIMITED TABLESPACE TO idempotency_check_1"),
                oracle.createSchemaStatements("idempotency_check_1"));
        assertEquals(
                List.of("DROP USER idempotency_check_1 CASCADE"), oracle.dropSchemaStatements("idempotency_check_1"));
        assertEquals(
                List.of("CREATE SCHEMA s"), Engine.dialectNamed("postgresql").createSchemaStatements("s"));
        assertEquals(
                List.of("DROP SCHEMA s CASCADE"),
                Engine.dialectNamed("postgresql").dropSchemaStatements("s"));
        assertEquals(List.of("DROP SCHEMA s"), Engine.dialectNamed("mariadb").dropSchemaStatements("s"));
    }
}
