package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * MariaDB 10.11 and later with InnoDB, and MySQL 8.4 with the same SQL (tested against MariaDB only; see
 * {@code docs/engines.md}). The claim is {@code INSERT IGNORE}: a concurrent duplicate waits on the
 * duplicate's index record until the first transaction ends, then inserts (the first rolled back) or affects
 * no row (it committed). {@code IGNORE} also turns data errors into warnings, so the store refuses identities
 * longer than the key columns before it claims, and no other column can truncate ({@code LONGTEXT}, {@code
 * LONGBLOB}).
 */
class MariaDbDialect extends SqlDialect {
    /** The key columns are {@code VARCHAR(255)}: three of them fit InnoDB's 3072-byte index limit in utf8mb4. */
    private static final int KEY_COLUMN_LENGTH = 255;

    private static final Logger LOG = Logger.getLogger(MariaDbDialect.class.getName());

    MariaDbDialect(Engine engine) {
        super(engine);
    }

    /**
     * A MariaDB node of a Galera cluster ({@code wsrep_on}) gets {@link GaleraDialect}; MySQL, which shares this
     * dialect, has no such variant here.
     */
    @Override
    public SqlDialect forServer(DataSource dataSource) {
        if (engine() != Engine.MARIADB) {
            return this;
        }
        try (Connection connection = dataSource.getConnection()) {
            return forServer(connection);
        } catch (SQLException e) {
            // The database may be down while the application deploys (a named engine and schema = none allow it).
            LOG.warning("could not tell whether MariaDB runs as a Galera node (" + e.getMessage() + "); the claim is"
                    + " one server's. On a Galera cluster, make the database reachable when the application starts");
            return this;
        }
    }

    @Override
    SqlDialect forServer(Connection connection) throws SQLException {
        if (engine() != Engine.MARIADB) {
            return this;
        }
        try (Statement statement = connection.createStatement();
                ResultSet variable = statement.executeQuery("SHOW VARIABLES LIKE 'wsrep_on'")) {
            return variable.next() && "ON".equalsIgnoreCase(variable.getString(2)) ? new GaleraDialect() : this;
        }
    }

    /** A schema is a database here: {@code CREATE SCHEMA} makes one, and the connection's catalog selects it. */
    @Override
    public void useSchema(Connection connection, String schema) throws SQLException {
        connection.setCatalog(schema);
    }

    @Override
    public List<String> dropSchemaStatements(String schema) {
        return Collections.singletonList("DROP SCHEMA " + schema);
    }

    @Override
    public OptionalInt maxIdentityLength() {
        return OptionalInt.of(KEY_COLUMN_LENGTH);
    }

    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT IGNORE INTO request_result (scope, operation, request_key, request,"
                + " created_at, expires_at) VALUES (:scope, :operation, :requestKey, :request, UTC_TIMESTAMP(6),"
                + " UTC_TIMESTAMP(6) + INTERVAL :retentionSeconds SECOND)");
    }

    /**
     * A locking read: under Repeatable Read, InnoDB's default, a plain read could use a snapshot older than the
     * winner's commit; a locking read always sees the latest committed row (MariaDB docs, "InnoDB Lock Modes").
     */
    @Override
    public SqlStatement selectRequestResultStatement() {
        return super.selectRequestResultStatement().then(" LOCK IN SHARE MODE");
    }

    /**
     * InnoDB has no SKIP LOCKED for DELETE: a purge waits for a retry that holds an expired row, up to the
     * store's purge statement timeout, and the next run tries again.
     */
    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return SqlStatement.of(
                "DELETE FROM request_result WHERE expires_at < UTC_TIMESTAMP(6) ORDER BY expires_at LIMIT :batchSize");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT IGNORE INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) VALUES (:subscriber, :messageId, :payload, :localObject, UTC_TIMESTAMP(6))");
    }

    @Override
    public SqlStatement selectMessagePayloadStatement() {
        return super.selectMessagePayloadStatement().then(" LOCK IN SHARE MODE");
    }

    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE FROM processed_message WHERE processed_at < UTC_TIMESTAMP(6) - INTERVAL"
                + " :retentionSeconds SECOND ORDER BY processed_at LIMIT :batchSize");
    }

    @Override
    public SqlStatement upsertRolloutStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, UTC_TIMESTAMP(6)) ON DUPLICATE KEY UPDATE"
                + " mode = VALUES(mode), changed_by = VALUES(changed_by), changed_at = VALUES(changed_at)");
    }

    @Override
    public SqlStatement addToKeylessDayStatement() {
        return SqlStatement.of("INSERT INTO idempotency_keyless_day (operation, principal, user_agent, utc_day,"
                + " requests, duplicates, first_seen, last_seen) VALUES (:operation, :principal, :userAgent, :day,"
                + " :requests, :duplicates, :firstSeen, :lastSeen) ON DUPLICATE KEY UPDATE"
                + " requests = requests + VALUES(requests), duplicates = duplicates + VALUES(duplicates),"
                + " first_seen = LEAST(first_seen, VALUES(first_seen)),"
                + " last_seen = GREATEST(last_seen, VALUES(last_seen))");
    }

    @Override
    public SqlStatement addToCounterStatement() {
        return SqlStatement.of("INSERT INTO idempotency_counter (operation, counter, principal, user_agent, count,"
                + " updated_at) VALUES (:operation, :counter, :principal, :userAgent, :amount, UTC_TIMESTAMP(6))"
                + " ON DUPLICATE KEY UPDATE count = count + VALUES(count), updated_at = VALUES(updated_at)");
    }

    @Override
    public SqlStatement insertRolloutHistoryStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout_history (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, UTC_TIMESTAMP(6))");
    }

    /**
     * The DDL stores UTC in {@code DATETIME(6)} (no time zone, no 2038 limit), so it is read as a local date-time
     * in UTC, whatever the JVM's or the session's zone.
     */
    @Override
    public Instant readInstant(ResultSet row, int column) throws SQLException {
        return readUtc(row, column);
    }

    /**
     * 1205 lock wait timeout ({@code innodb_lock_wait_timeout}), 1969 statement time exceeded and SQLSTATE
     * 70100 (the JDBC query timeout, which the driver sends as {@code max_statement_time}); 1213 deadlock
     * (SQLSTATE 40001) and 1020 "record has changed since last read" (snapshot isolation; it rolls back the
     * whole transaction) are conflicts. Read by vendor code first: MySQL may report 1205 as 40001, and SQLSTATE
     * 23000 mixes duplicates with other constraint violations.
     */
    @Override
    public Failure classify(SQLException failure) {
        int code = failure.getErrorCode();
        if (code == 1205 || code == 1969 || "70100".equals(failure.getSQLState())) {
            return Failure.WAIT_TIMEOUT;
        }
        if (code == 1213 || code == 1020) {
            return Failure.TRANSACTION_CONFLICT;
        }
        if (code == 1062) {
            return Failure.DUPLICATE_KEY;
        }
        if ("23000".equals(failure.getSQLState())) {
            return Failure.OTHER;
        }
        return super.classify(failure);
    }
}
