package dev.idempotency.tx;

import dev.idempotency.dialect.SqlDialect;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * What a JTA container gives the filter, made of plain JDBC: while a thread's transaction is open, every {@link
 * #getConnection()} on that thread hands out the same connection, as the container hands out the transaction's
 * connection, so the store's statements and the caller's share one local transaction. Outside a transaction a
 * connection is an ordinary auto-commit one. Every connection works in the given schema.
 *
 * <p>For running the filter's store and core without a container: the store check, and the core's tests. A
 * timeout given to {@link #begin} is not enforced.
 *
 * <p>Thread-safe: each thread has its own transaction.
 */
public final class LocalTransactions implements DataSource, Transaction {
    /** Opens a new connection to the database. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    private final ConnectionSource database;
    private final SqlDialect dialect;
    private final String schema;
    private final ThreadLocal<Connection> current = new ThreadLocal<>();

    /**
     * @param dialect the engine's dialect, which selects the schema; may be {@code null} without a schema
     * @param schema the schema unqualified names resolve in, or {@code null} for the connection's own
     */
    public LocalTransactions(ConnectionSource database, SqlDialect dialect, String schema) {
        this.database = database;
        this.dialect = dialect;
        this.schema = schema;
    }

    @Override
    public void begin(Optional<Duration> timeout) {
        if (current.get() != null) {
            throw new IllegalStateException("a transaction is already open on this thread");
        }
        try {
            Connection connection = open();
            connection.setAutoCommit(false);
            current.set(connection);
        } catch (SQLException e) {
            throw new IllegalStateException("could not open a connection for the transaction: " + e.getMessage(), e);
        }
    }

    /** A local transaction cannot be marked rollback-only: while it is open, it can commit. */
    @Override
    public boolean isCommittable() {
        return current.get() != null;
    }

    @Override
    public void commit() {
        try (Connection connection = end()) {
            connection.commit();
        } catch (SQLException e) {
            throw new CommitFailedException("the transaction did not commit: " + e, e);
        }
    }

    @Override
    public void rollback() {
        if (current.get() == null) {
            return;
        }
        try (Connection connection = end()) {
            connection.rollback();
        } catch (SQLException e) {
            // The connection is closed either way; the database ends the transaction with it.
        }
    }

    private Connection end() {
        Connection connection = current.get();
        if (connection == null) {
            throw new IllegalStateException("no transaction is open on this thread");
        }
        current.remove();
        return connection;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection transactional = current.get();
        return transactional == null ? open() : unclosable(transactional);
    }

    private Connection open() throws SQLException {
        Connection connection = database.open();
        if (schema != null) {
            dialect.useSchema(connection, schema);
        }
        return connection;
    }

    /** The transaction's connection, lent out: the borrower's close() leaves it open, as a container's would. */
    private static Connection unclosable(Connection connection) {
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(connection, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the store check connects with the credentials it was given");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }
}
