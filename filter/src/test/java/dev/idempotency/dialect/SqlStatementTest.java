package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SqlStatementTest {
    @Test
    void namedParametersBecomePositionalInTheirOrderOfUse() {
        SqlStatement statement = SqlStatement.of("UPDATE t SET a = :status WHERE k = :key AND s = :status");

        assertEquals("UPDATE t SET a = ? WHERE k = ? AND s = ?", statement.jdbc());
        assertEquals(List.of("status", "key", "status"), statement.parameters());
    }

    @Test
    void castsQuotesAndTimesAreNotParameters() {
        SqlStatement statement =
                SqlStatement.of("SELECT :a::text, ':b', \"c:d\", now() - :seconds * interval '1 second', '12:30', -:n");

        assertEquals("SELECT ?::text, ':b', \"c:d\", now() - ? * interval '1 second', '12:30', -?", statement.jdbc());
        assertEquals(List.of("a", "seconds", "n"), statement.parameters());
    }

    @Test
    void aClauseWrittenAfterKeepsTheParameters() {
        SqlStatement locked = SqlStatement.of("SELECT x FROM t WHERE k = :key").then(" LOCK IN SHARE MODE");

        assertEquals("SELECT x FROM t WHERE k = ? LOCK IN SHARE MODE", locked.jdbc());
        assertEquals(List.of("key"), locked.parameters());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void everyStatementOfEveryDialectNamesOnlyKnownParameters(Engine engine) {
        List<SqlDialect> dialects = new ArrayList<>(List.of(engine.dialect()));
        if (engine == Engine.MARIADB) {
            // The variant detection picks for a MariaDB node of a Galera cluster (MariaDbDialect.forServer).
            dialects.add(new GaleraDialect());
        }
        for (SqlDialect dialect : dialects) {
            assertOnlyKnownParameters(dialect);
        }
    }

    private static void assertOnlyKnownParameters(SqlDialect dialect) {
        List<String> known = List.of(
                "scope",
                "operation",
                "requestKey",
                "request",
                "retentionSeconds",
                "status",
                "headers",
                "body",
                "batchSize",
                "subscriber",
                "messageId",
                "payload",
                "localObject",
                "mode",
                "changedBy",
                "counter",
                "principal",
                "userAgent",
                "amount");
        List<SqlStatement> statements = new ArrayList<>(List.of(
                dialect.claimStatement(),
                dialect.selectRequestResultStatement(),
                dialect.completeStatement(),
                dialect.deleteScopeStatement(),
                dialect.purgeExpiredRequestsStatement(),
                dialect.claimMessageStatement(),
                dialect.selectMessagePayloadStatement(),
                dialect.purgeProcessedMessagesStatement(),
                dialect.selectRolloutStatement(),
                dialect.selectCountersStatement(),
                dialect.insertRolloutHistoryStatement()));
        statements.addAll(dialect.upsertRolloutStatements());
        statements.addAll(dialect.addToCounterStatements());
        dialect.claimReturningCommittedStatement(dialect.claimStatement()).ifPresent(statements::add);
        for (SqlStatement statement : statements) {
            assertTrue(known.containsAll(statement.parameters()), statement + " names " + statement.parameters());
            assertTrue(!statement.jdbc().contains(":"), statement.jdbc());
        }
    }

    @Test
    void aMissingValueIsNamed() {
        SqlStatement statement = SqlStatement.of("SELECT 1 WHERE k = :key");

        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> statement.bind(null, SqlStatement.Values.of().text("other", "x")));

        assertTrue(e.getMessage().contains(":key"), e.getMessage());
    }
}
