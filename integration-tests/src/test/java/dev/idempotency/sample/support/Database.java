package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;

/** Direct JDBC access to the test's PostgreSQL, to check what the server really committed. */
public final class Database {
    private Database() {}

    /** A committed record, as the table holds it. */
    public record StoredRecord(String request, int status, String headers, String body) {}

    public static long balance(long accountId) {
        return queryLong("SELECT balance FROM account WHERE id = ?", accountId);
    }

    public static long recordCount(String scope, String operation, String key) {
        return queryLong(
                "SELECT count(*) FROM request_result WHERE scope = ? AND operation = ? AND request_key = ?",
                scope,
                operation,
                key);
    }

    /** How many records hold requests to this context-relative path, whoever sent them. */
    public static long recordCountForPath(String path) {
        return queryLong("SELECT count(*) FROM request_result WHERE request LIKE ?", "%\"path\":\"" + path + "\"%");
    }

    /** How many records exist under this key, in any scope and operation. */
    public static long recordCountForKey(String key) {
        return queryLong("SELECT count(*) FROM request_result WHERE request_key = ?", key);
    }

    /**
     * Sessions inside an open transaction, less the filter's own housekeeping (its rollout refresh, counter flush,
     * keyless history and purge, each a short transaction of its own that the tests run every second): a request's
     * transaction left open is what the tests look for, and a housekeeping transaction caught between two of its
     * statements is not one.
     */
    private static final String IDLE_IN_TRANSACTION = "FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'"
            + " AND pid <> pg_backend_pid() AND query NOT LIKE '%idempotency_rollout%'"
            + " AND query NOT LIKE '%idempotency_counter%' AND query NOT LIKE '%idempotency_keyless_day%'"
            + " AND query NOT LIKE '%WHERE expires_at <%'";

    /** The last statement of each session that sits inside an open transaction, for a failure message. */
    public static String idleInTransactionStatements() {
        String sql = "SELECT state || ': ' || query " + IDLE_IN_TRANSACTION;
        try (Connection c = PostgresExtension.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql);
                ResultSet r = s.executeQuery()) {
            StringBuilder statements = new StringBuilder();
            while (r.next()) {
                statements.append(r.getString(1)).append('\n');
            }
            return statements.toString();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sessions of the application's database that sit inside an open transaction: a leak, once idle. */
    public static long sessionsIdleInTransaction() {
        return queryLong("SELECT count(*) " + IDLE_IN_TRANSACTION);
    }

    public static Optional<StoredRecord> record(String scope, String operation, String key) {
        String sql = "SELECT request, response_status, response_headers, convert_from(response_body, 'UTF8')"
                + " FROM request_result WHERE scope = ? AND operation = ? AND request_key = ?";
        try (Connection c = PostgresExtension.dataSource().getConnection();
                PreparedStatement s = prepare(c, sql, scope, operation, key);
                ResultSet r = s.executeQuery()) {
            return r.next()
                    ? Optional.of(new StoredRecord(r.getString(1), r.getInt(2), r.getString(3), r.getString(4)))
                    : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The single number a query such as {@code SELECT count(*) ...} returns. */
    /**
     * Waits until the count {@code sql} reads reaches {@code atLeast}, asking the database; fails after a minute. A
     * wait for a state the test can see, never for a time.
     */
    public static void awaitCount(String sql, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
        while (count(sql) < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("never " + atLeast + " from " + sql);
            }
            Thread.sleep(20);
        }
    }

    public static long count(String sql) {
        return queryLong(sql);
    }

    /** The single timestamp a query returns. */
    public static java.time.Instant instant(String sql) {
        try (Connection c = PostgresExtension.dataSource().getConnection();
                PreparedStatement s = c.prepareStatement(sql);
                ResultSet r = s.executeQuery()) {
            r.next();
            return r.getTimestamp(1).toInstant();
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /**
     * Creates the filter's tables from the DDL its jar ships, as an adopting team's migration would, before
     * a WAR that has no installer of its own is deployed. The script is idempotent.
     */
    public static void installFilterTables() throws SQLException, IOException {
        runScript(PostgresExtension.dataSource(), resource("META-INF/idempotency/postgresql.sql"));
    }

    /** The filter's tables and the sample's, as the sample's own installer makes them on WildFly. */
    public static void installSampleTables() throws SQLException, IOException {
        installSampleTables(PostgresExtension.dataSource());
    }

    /** The same tables on another PostgreSQL, such as the primary of {@link PostgresPair}. */
    public static void installSampleTables(DataSource dataSource) throws SQLException, IOException {
        runScript(dataSource, resource("META-INF/idempotency/postgresql.sql"));
        runScript(dataSource, Files.readString(Path.of(System.getProperty("sample.classes"), "META-INF/sample.sql")));
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = Database.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void runScript(DataSource dataSource, String script) throws SQLException {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement()) {
            s.execute(script);
        }
    }

    public static void execute(String sql, Object... parameters) throws SQLException {
        try (Connection c = PostgresExtension.dataSource().getConnection();
                PreparedStatement s = prepare(c, sql, parameters)) {
            s.execute();
        }
    }

    /** The scope under which the record of this key is stored, as the table holds it. */
    public static Optional<String> scopeOfKey(String key) {
        try (Connection c = PostgresExtension.dataSource().getConnection();
                PreparedStatement s = prepare(c, "SELECT scope FROM request_result WHERE request_key = ?", key);
                ResultSet r = s.executeQuery()) {
            return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("reading the scope of " + key, e);
        }
    }

    private static long queryLong(String sql, Object... parameters) {
        try (Connection c = PostgresExtension.dataSource().getConnection();
                PreparedStatement s = prepare(c, sql, parameters);
                ResultSet r = s.executeQuery()) {
            if (!r.next()) {
                throw new IllegalStateException("no row for " + sql);
            }
            return r.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... parameters) throws SQLException {
        PreparedStatement s = c.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            s.setObject(i + 1, parameters[i]);
        }
        return s;
    }
}
