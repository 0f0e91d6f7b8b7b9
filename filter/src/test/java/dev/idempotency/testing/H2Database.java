package dev.idempotency.testing;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.tx.LocalTransactions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * A fresh in-memory H2 database with the filter's tables, and local transactions on it: what the container's
 * datasource and JTA are to the filter, for tests of the classes that run in transactions of their own.
 */
public final class H2Database {
    public static final SqlDialect DIALECT = Engine.dialectNamed("h2");

    private final String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final LocalTransactions transactions =
            new LocalTransactions(() -> DriverManager.getConnection(url), DIALECT, null);

    public H2Database() {
        new FilterSchema(transactions, DIALECT, "the test database").createMissing();
    }

    /** The datasource and the transactions on it, in one. */
    public LocalTransactions transactions() {
        return transactions;
    }

    /** Runs one statement outside any transaction, such as a test's own change to the data. */
    public void execute(String sql) throws SQLException {
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The one number {@code sql} selects. */
    public long count(String sql) throws SQLException {
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement();
                var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
