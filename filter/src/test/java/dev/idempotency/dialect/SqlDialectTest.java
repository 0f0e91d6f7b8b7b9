package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import dev.idempotency.dialect.SqlDialect.Failure;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Choosing the engine from the JDBC metadata, and reading its errors. */
class SqlDialectTest {
    @Test
    void choosesTheDialectFromTheProductNameAndVersion() {
        assertEquals("PostgreSQL", Engine.forProduct("PostgreSQL", 18, 6).name());
        assertEquals("MariaDB", Engine.forProduct("MariaDB", 11, 4).name());
        assertEquals("MariaDB", Engine.forProduct("MariaDB", 10, 11).name());
        assertEquals("MySQL", Engine.forProduct("MySQL", 8, 4).name());
        assertEquals("H2", Engine.forProduct("H2", 2, 5).name());
        assertEquals(
                "Microsoft SQL Server",
                Engine.forProduct("Microsoft SQL Server", 16, 0).name());
        assertEquals(
                "Microsoft SQL Server",
                Engine.forProduct("Microsoft SQL Server", 17, 0).name());
        assertEquals("Oracle", Engine.forProduct("Oracle", 23, 0).name());
    }

    @Test
    void onlyPostgreSqlsClaimsAreQueriesThatAlsoReturnACommittedRecord() {
        SqlDialect postgres = Engine.dialectNamed("postgresql");
        for (SqlStatement claim : List.of(postgres.claimStatement(), postgres.claimWithoutWaitingStatement())) {
            SqlStatement query =
                    postgres.claimReturningCommittedStatement(claim).orElseThrow();

            assertTrue(
                    query.toString().startsWith("WITH claim AS (" + claim + " RETURNING 1) SELECT"), query.toString());
            assertEquals(Set.copyOf(claim.parameters()), Set.copyOf(query.parameters()), query.toString());
        }
        for (Engine engine : Engine.values()) {
            SqlDialect dialect = engine.dialect();
            if (engine != Engine.POSTGRESQL) {
                assertEquals(
                        Optional.empty(),
                        dialect.claimReturningCommittedStatement(dialect.claimStatement()),
                        engine.name());
            }
        }
    }

    @Test
    void refusesAnUnsupportedEngineNamingItAndTheSupportedOnes() {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> Engine.forProduct("DB2/LINUXX8664", 11, 5));

        assertTrue(e.getMessage().contains("DB2/LINUXX8664 11.5"), e.getMessage());
        assertTrue(e.getMessage().contains("PostgreSQL 13 or later, MariaDB 10.11 or later"), e.getMessage());
        assertTrue(e.getMessage().contains("SQL Server 2022 or later (experimental, not tested)"), e.getMessage());
        assertTrue(e.getMessage().contains("Oracle Database 23ai or later (experimental, not tested)"), e.getMessage());
        assertTrue(e.getMessage().contains("docs/engines.md"), e.getMessage());
    }

    @Test
    void refusesVersionsOlderThanTheSupportedOnes() {
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("PostgreSQL", 12, 0));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("MariaDB", 10, 6));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("MySQL", 8, 0));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("H2", 1, 4));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("Microsoft SQL Server", 15, 0));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("Oracle", 19, 0));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("SQLite", 3, 41));
        assertThrows(ConfigurationException.class, () -> Engine.forProduct("Apache Derby", 10, 15));
    }

    @Test
    void readsSqlServersErrorCodes() {
        SqlDialect sqlServer = Engine.dialectNamed("sqlserver");

        assertEquals(Failure.WAIT_TIMEOUT, sqlServer.classify(failure("S0001", 1222)), "lock request timeout");
        assertEquals(
                Failure.WAIT_TIMEOUT,
                sqlServer.classify(new SQLException("The query has timed out.", "HY008", 0)),
                "mssql-jdbc's query timeout");
        assertEquals(Failure.TRANSACTION_CONFLICT, sqlServer.classify(failure("40001", 1205)), "deadlock");
        assertEquals(Failure.TRANSACTION_CONFLICT, sqlServer.classify(failure("S0001", 1205)), "deadlock");
        assertEquals(Failure.TRANSACTION_CONFLICT, sqlServer.classify(failure("S0001", 3960)), "snapshot conflict");
        assertEquals(Failure.DUPLICATE_KEY, sqlServer.classify(failure("23000", 2627)), "primary key");
        assertEquals(Failure.DUPLICATE_KEY, sqlServer.classify(failure("23000", 2601)), "unique index");
        assertEquals(Failure.OTHER, sqlServer.classify(failure("23000", 547)), "check constraint");
        assertEquals(Failure.OTHER, sqlServer.classify(failure("23000", 515)), "NULL in a NOT NULL column");
        assertEquals(Failure.OTHER, sqlServer.classify(failure("S0002", 208)), "invalid object name");
    }

    @Test
    void readsOraclesErrorCodes() {
        SqlDialect oracle = Engine.dialectNamed("oracle");

        assertEquals(Failure.WAIT_TIMEOUT, oracle.classify(failure("72000", 1013)), "ORA-01013, the query timeout");
        assertEquals(Failure.WAIT_TIMEOUT, oracle.classify(failure("61000", 54)), "ORA-00054 resource busy");
        assertEquals(Failure.WAIT_TIMEOUT, oracle.classify(failure("99999", 30006)), "ORA-30006 wait timed out");
        assertEquals(Failure.TRANSACTION_CONFLICT, oracle.classify(failure("61000", 60)), "ORA-00060 deadlock");
        assertEquals(Failure.TRANSACTION_CONFLICT, oracle.classify(failure("72000", 8177)), "ORA-08177");
        assertEquals(Failure.DUPLICATE_KEY, oracle.classify(failure("23000", 1)), "ORA-00001");
        assertEquals(Failure.OTHER, oracle.classify(failure("23000", 1400)), "ORA-01400 NULL (an empty string)");
        assertEquals(Failure.OTHER, oracle.classify(failure("42000", 942)), "ORA-00942 no such table");
    }

    @Test
    void readsMySqlsErrorCodesWithTheMariaDbDialect() {
        SqlDialect mySql = Engine.dialectNamed("mysql");

        assertEquals(Failure.WAIT_TIMEOUT, mySql.classify(failure("HY000", 1205)), "lock wait timeout");
        assertEquals(Failure.WAIT_TIMEOUT, mySql.classify(failure("40001", 1205)), "lock wait timeout as 40001");
        assertEquals(Failure.TRANSACTION_CONFLICT, mySql.classify(failure("40001", 1213)), "deadlock");
        assertEquals(Failure.TRANSACTION_CONFLICT, mySql.classify(failure("40001", 0)), "serialization failure");
        assertEquals(Failure.DUPLICATE_KEY, mySql.classify(failure("23000", 1062)), "duplicate entry");
        assertEquals(Failure.OTHER, mySql.classify(failure("23000", 1048)), "NULL in a NOT NULL column");
    }

    @Test
    void readsTheStandardSqlStateClassesOnEveryEngine() {
        for (String engine : SqlDialect.SETTING_VALUES) {
            SqlDialect dialect = Engine.dialectNamed(engine);
            assertEquals(
                    SqlDialect.Failure.TRANSACTION_CONFLICT, dialect.classify(new SQLException("x", "40001")), engine);
            assertEquals(SqlDialect.Failure.DUPLICATE_KEY, dialect.classify(new SQLException("x", "23505")), engine);
            assertEquals(SqlDialect.Failure.OTHER, dialect.classify(new SQLException("x", "42P01")), engine);
        }
    }

    @Test
    void findsTheSqlExceptionInACauseChain() {
        RuntimeException wrapped =
                new RuntimeException("provider", new IllegalStateException(new SQLException("x", "40P01")));

        assertEquals(
                SqlDialect.Failure.TRANSACTION_CONFLICT,
                Engine.dialectNamed("postgresql").classify(wrapped));
        assertEquals(SqlDialect.Failure.OTHER, Engine.dialectNamed("postgresql").classify(new RuntimeException()));
    }

    private static SQLException failure(String sqlState, int vendorCode) {
        return new SQLException("database said no", sqlState, vendorCode);
    }
}
