package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Choosing the engine from the JDBC metadata, and reading its errors. */
class SqlDialectTest {
    @Test
    void choosesTheDialectFromTheProductNameAndVersion() {
        assertEquals("PostgreSQL", SqlDialect.forProduct("PostgreSQL", 18, 6).name());
        assertEquals("MariaDB", SqlDialect.forProduct("MariaDB", 11, 4).name());
        assertEquals("MariaDB", SqlDialect.forProduct("MariaDB", 10, 11).name());
        assertEquals("MySQL", SqlDialect.forProduct("MySQL", 8, 4).name());
        assertEquals("H2", SqlDialect.forProduct("H2", 2, 5).name());
    }

    @Test
    void refusesAnUnsupportedEngineNamingItAndTheSupportedOnes() {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> SqlDialect.forProduct("Oracle", 23, 0));

        assertTrue(e.getMessage().contains("Oracle 23.0"), e.getMessage());
        assertTrue(e.getMessage().contains("PostgreSQL 13 or later, MariaDB 10.11 or later"), e.getMessage());
        assertTrue(e.getMessage().contains("docs/engines.md"), e.getMessage());
    }

    @Test
    void refusesVersionsOlderThanTheSupportedOnes() {
        assertThrows(ConfigurationException.class, () -> SqlDialect.forProduct("PostgreSQL", 12, 0));
        assertThrows(ConfigurationException.class, () -> SqlDialect.forProduct("MariaDB", 10, 6));
        assertThrows(ConfigurationException.class, () -> SqlDialect.forProduct("MySQL", 8, 0));
        assertThrows(ConfigurationException.class, () -> SqlDialect.forProduct("H2", 1, 4));
    }

    @Test
    void readsTheStandardSqlStateClassesOnEveryEngine() {
        for (String engine : SqlDialect.SETTING_VALUES) {
            SqlDialect dialect = SqlDialect.named(engine);
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
                SqlDialect.named("postgresql").classify(wrapped));
        assertEquals(SqlDialect.Failure.OTHER, SqlDialect.named("postgresql").classify(new RuntimeException()));
    }
}
