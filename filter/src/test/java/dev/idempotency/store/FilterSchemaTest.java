package dev.idempotency.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import dev.idempotency.dialect.Engine;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The start-up check and creation of the filter's tables, on a real in-memory H2. */
class FilterSchemaTest {
    private final JdbcDataSource dataSource = new JdbcDataSource();
    private final FilterSchema schema;

    FilterSchemaTest() {
        dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        schema = new FilterSchema(dataSource, Engine.dialectNamed("h2"), "'java:app/jdbc/own'");
    }

    @Test
    void validateRefusesMissingTablesNamingTheDatasourceTheEngineAndTheDdl() {
        ConfigurationException e = assertThrows(ConfigurationException.class, schema::validate);

        assertTrue(e.getMessage().contains("'java:app/jdbc/own' (H2)"), e.getMessage());
        assertTrue(
                e.getMessage()
                        .contains("[request_result, idempotency_rollout, idempotency_rollout_history,"
                                + " idempotency_counter, idempotency_keyless_day]"),
                e.getMessage());
        assertTrue(e.getMessage().contains("META-INF/idempotency/h2.sql"), e.getMessage());
        assertTrue(e.getMessage().contains("schema = create"), e.getMessage());
    }

    @Test
    void createMakesEveryTableAndValidatePassesAfterwards() throws Exception {
        schema.createMissing();

        assertDoesNotThrow(schema::validate);
        execute("INSERT INTO processed_message (subscriber, message_id, processed_at)"
                + " VALUES ('s', 'm', CURRENT_TIMESTAMP)");
    }

    @Test
    void aTableWithoutAColumnTheFilterUsesCountsAsMissing() throws Exception {
        schema.createMissing();
        execute("ALTER TABLE idempotency_counter DROP COLUMN updated_at");

        ConfigurationException e = assertThrows(ConfigurationException.class, schema::validate);

        assertTrue(e.getMessage().contains("[idempotency_counter]"), e.getMessage());
    }

    @Test
    void nodesStartingAtOnceAllCreateSuccessfully() throws Exception {
        int nodes = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<?>> started = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                started.add(pool.submit(() -> {
                    start.await();
                    new FilterSchema(dataSource, Engine.dialectNamed("h2"), "'own'").createMissing();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> node : started) {
                node.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertDoesNotThrow(schema::validate);
    }

    @Test
    void everyShippedScriptSplitsIntoItsStatements() {
        for (Engine engine : Engine.values()) {
            List<String> statements = FilterSchema.statements(engine.ddlResource());
            // Five tables and their indexes, each statement whole; SQL Server's each check for their object first.
            assertTrue(statements.size() >= 5, engine + ": " + statements);
            for (String statement : statements) {
                String start = engine == Engine.SQLSERVER ? "IF " : "CREATE ";
                assertTrue(statement.startsWith(start), engine + ": " + statement);
                assertTrue(statement.contains("CREATE "), engine + ": " + statement);
                assertEquals(-1, statement.indexOf(';'), engine + ": " + statement);
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
