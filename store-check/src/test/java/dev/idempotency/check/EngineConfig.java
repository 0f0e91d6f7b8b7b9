package dev.idempotency.check;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Every test fact of one database engine, in one place that every tier reuses (ShedLock's {@code DbConfig}): how
 * the engine is started, the JDBC URL, user and password of its database, how a test makes a namespace of its own
 * (a schema, a MariaDB database, a SQLite file), and the catalog query that lists what the filter's DDL made in
 * one. The store contract without a server ({@link StoreContractTest}), the container tests' {@code Engine} and
 * {@code MigrationsIT} all read it; a tier chooses only where the engine runs (a port, a file, in memory), by the
 * subclass's factory it calls.
 *
 * <p>Thread-safe: an engine is started once per JVM, under the subclass's lock.
 */
public abstract class EngineConfig {
    /** The filter's name for the engine: the {@code database} setting's value and the base name of its DDL. */
    public abstract String name();

    /**
     * The JDBC URL of the engine's test database, started first if this descriptor starts it and it is not
     * running yet.
     *
     * @param namespace one made by {@link #createNamespace}, or {@code null} for the database's default
     */
    public abstract String url(String namespace);

    /** Starts the engine unless it is running or another starter runs it; {@link #url(String)} does it too. */
    public void start() {
        url();
    }

    /** The URL of the default namespace. */
    public final String url() {
        return url(null);
    }

    /** The user, or {@code null} for an engine without users (SQLite). */
    public abstract String user();

    /** The password, or {@code null} for an engine without users. */
    public abstract String password();

    /**
     * Creates a namespace of its own for a test, called {@code name} as far as the engine allows.
     *
     * @return its name as {@link #url(String)} and {@link #catalogQuery} take it, in the engine's spelling
     */
    public abstract String createNamespace(String name) throws SQLException;

    /**
     * The name by which SQL and migration tools (Flyway's {@code schemas}) address {@code namespace}, or {@code
     * null} where a namespace is a file of its own and has no such name.
     */
    public String schemaName(String namespace) {
        return namespace;
    }

    /**
     * A query, run on a connection to the namespace, with the namespace's name bound to each of its parameters,
     * that lists one sorted row per column ({@code table column type [collation] nullability}) and per index
     * ({@code table index name}) of the tables in it, leaving out {@code excludedTables}.
     *
     * @param excludedTables an SQL list of table names, such as {@code ('flyway_schema_history')}
     */
    public abstract String catalogQuery(String excludedTables);

    public final Connection connect() throws SQLException {
        return connect(null);
    }

    public final Connection connect(String namespace) throws SQLException {
        return DriverManager.getConnection(url(namespace), user(), password());
    }

    /** Runs one statement on the default namespace. */
    public final void execute(String sql) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
