package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Apache Derby 10.16 and later, through its network server or embedded. Measured on 10.16.1.1 with its network
 * server and client driver (docs/engines.md, "Apache Derby").
 *
 * <p><b>Claim.</b> A plain {@code INSERT}. A concurrent duplicate waits on the first transaction's row lock; after a
 * rollback its insert succeeds, after a commit it fails with 23505, and Derby rolls back only that statement: the
 * application's transaction stays usable, so the store reads the duplicate as "taken" ({@link
 * Failure#DUPLICATE_KEY}), as on Oracle. The store sends that statement through plain JDBC, so no JPA provider
 * marks the transaction rollback-only. Not {@code MERGE}: a prepared {@code MERGE} drops the connection of
 * Derby 10.16.1.1's network server (08006; the server fails writing its reply), whether or not it has
 * parameters; it works embedded and as a plain statement only. For the same reason the rollout and counter
 * upserts are two statements each ({@link #upsertRolloutStatements}, {@link #addToCounterStatements}, {@link
 * #addToKeylessDayStatements}).
 *
 * <p><b>The wait.</b> A JDBC query timeout does not end a lock wait on Derby (a two-second timeout waited the full
 * five seconds the first transaction held the key). What ends it is Derby's {@code derby.locks.waitTimeout}
 * (60 seconds by default), a database or system property and not a session one: past it the statement fails
 * with 40XL1, and Derby has rolled back the whole transaction. That is {@link Failure#WAIT_TIMEOUT} here, not a
 * conflict: the store answers "in progress", as at its own bound. So on Derby the filter's {@code lock-timeout}
 * is that property's value; set it with {@code SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY}. A deadlock is 40001.
 *
 * <p><b>Keys.</b> {@code VARCHAR(1000)} under the default {@code UCS_BASIC} collation compares by code point, but
 * pads the shorter text with spaces first ({@code 'a' = 'a '} is true, and the primary key refuses {@code 'a '}
 * beside {@code 'a'}); {@code FOR BIT DATA} pads the same way. So a part that ends with a space is refused
 * ({@link #refusedIdentityPart}), as on SQL Server.
 *
 * <p><b>Times.</b> Derby has no time zones; times are {@code BIGINT} milliseconds since the epoch, from the
 * database server's clock through the DDL's {@code idempotency_now_millis()}.
 */
final class DerbyDialect extends SqlDialect {
    /** The key columns are {@code VARCHAR(1000)} (derby.sql). */
    private static final int KEY_COLUMN_LENGTH = 1000;

    /** Derby's {@code derby.locks.waitTimeout} where nothing sets it. */
    private static final int DEFAULT_LOCK_WAIT_SECONDS = 60;

    /** Milliseconds since the epoch, UTC, on the database server (derby.sql). */
    private static final String NOW = "idempotency_now_millis()";

    DerbyDialect(Engine engine) {
        super(engine);
    }

    /**
     * A duplicate's failed insert keeps its lock on the existing row until its transaction ends (measured on
     * 10.16.1.1: a second transaction's insert or select of that key then waits for it), so replays of one key
     * run one after another.
     */
    @Override
    public boolean claimsOneAfterAnother() {
        return true;
    }

    /** Derby drops a schema only when it is empty: its tables and the time function go first. */
    @Override
    public List<String> dropSchemaStatements(String schema) {
        return Collections.unmodifiableList(Arrays.asList(
                "DROP TABLE " + schema + ".request_result",
                "DROP TABLE " + schema + ".idempotency_rollout",
                "DROP TABLE " + schema + ".idempotency_rollout_history",
                "DROP TABLE " + schema + ".processed_message",
                "DROP TABLE " + schema + ".idempotency_counter",
                "DROP TABLE " + schema + ".idempotency_keyless_day",
                "DROP FUNCTION " + schema + ".idempotency_now_millis",
                "DROP SCHEMA " + schema + " RESTRICT"));
    }

    /**
     * The database's {@code derby.locks.waitTimeout}, or Derby's default of 60 seconds where the database does
     * not set it. A system property of the same name on the server would take precedence, and SQL cannot read it.
     */
    @Override
    public Optional<Duration> lockWaitBound(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(
                        "VALUES SYSCS_UTIL.SYSCS_GET_DATABASE_PROPERTY('derby.locks.waitTimeout')")) {
            String seconds = row.next() ? row.getString(1) : null;
            return Optional.of(
                    Duration.ofSeconds(seconds == null ? DEFAULT_LOCK_WAIT_SECONDS : Long.parseLong(seconds.trim())));
        }
    }

    @Override
    public OptionalInt maxIdentityLength() {
        return OptionalInt.of(KEY_COLUMN_LENGTH);
    }

    @Override
    public Optional<String> refusedIdentityPart(String part) {
        if (part.endsWith(" ")) {
            return Optional.of("ends with a space, which Derby pads away when it compares keys, so it would share its"
                    + " record with the same text without the trailing space; remove the trailing space");
        }
        return Optional.empty();
    }

    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) VALUES (:scope, :operation, :requestKey, :request, " + NOW + ", " + NOW
                + " + CAST(:retentionSeconds AS BIGINT) * 1000)");
    }

    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return SqlStatement.of("DELETE FROM request_result WHERE expires_at < " + NOW
                + " AND expires_at <= (SELECT MAX(expires_at) FROM (SELECT expires_at FROM request_result"
                + " WHERE expires_at < " + NOW + " ORDER BY expires_at FETCH FIRST :batchSize ROWS ONLY) AS batch)");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) VALUES (:subscriber, :messageId, :payload, :localObject, " + NOW + ")");
    }

    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE FROM processed_message WHERE processed_at < " + NOW
                + " - CAST(:retentionSeconds AS BIGINT) * 1000 AND processed_at <= (SELECT MAX(processed_at) FROM"
                + " (SELECT processed_at FROM processed_message WHERE processed_at < " + NOW
                + " - CAST(:retentionSeconds AS BIGINT) * 1000 ORDER BY processed_at FETCH FIRST :batchSize ROWS ONLY)"
                + " AS batch)");
    }

    /** Derby has no one-statement upsert that its network server runs: {@link #upsertRolloutStatements}. */
    @Override
    public SqlStatement upsertRolloutStatement() {
        throw new UnsupportedOperationException("Derby upserts in two statements: upsertRolloutStatements()");
    }

    /**
     * Inserts the row unless it exists, then updates it. Two nodes inserting the same new operation at once: the
     * second waits for the first, and fails with 23505 if the first committed; the administrator repeats it.
     */
    @Override
    public List<SqlStatement> upsertRolloutStatements() {
        return Collections.unmodifiableList(Arrays.asList(
                SqlStatement.of("INSERT INTO idempotency_rollout (operation, mode, changed_by, changed_at)"
                        + " SELECT CAST(:operation AS VARCHAR(1000)), CAST(:mode AS VARCHAR(16)),"
                        + " CAST(:changedBy AS VARCHAR(1000)), " + NOW + " FROM SYSIBM.SYSDUMMY1"
                        + " WHERE NOT EXISTS (SELECT 1 FROM idempotency_rollout WHERE operation = :operation)"),
                SqlStatement.of("UPDATE idempotency_rollout SET mode = :mode, changed_by = :changedBy, changed_at = "
                        + NOW + " WHERE operation = :operation")));
    }

    /** Derby has no one-statement upsert that its network server runs: {@link #addToCounterStatements}. */
    @Override
    public SqlStatement addToCounterStatement() {
        throw new UnsupportedOperationException("Derby adds to a counter in two statements: addToCounterStatements()");
    }

    /**
     * Inserts the counter at zero unless it exists, then adds to it. Two nodes making the same new counter at once:
     * the second's insert fails with 23505, its flush fails, and the counts are added at its next flush.
     */
    @Override
    public List<SqlStatement> addToCounterStatements() {
        return Collections.unmodifiableList(Arrays.asList(
                SqlStatement.of("INSERT INTO idempotency_counter (operation, counter, principal, user_agent, count,"
                        + " updated_at) SELECT CAST(:operation AS VARCHAR(1000)), CAST(:counter AS VARCHAR(1000)),"
                        + " CAST(:principal AS VARCHAR(1000)), CAST(:userAgent AS VARCHAR(1000)), 0, " + NOW
                        + " FROM SYSIBM.SYSDUMMY1 WHERE NOT EXISTS (SELECT 1 FROM idempotency_counter"
                        + " WHERE operation = :operation AND counter = :counter AND principal = :principal"
                        + " AND user_agent = :userAgent)"),
                SqlStatement.of("UPDATE idempotency_counter SET count = count + CAST(:amount AS BIGINT), updated_at = "
                        + NOW + " WHERE operation = :operation AND counter = :counter AND principal = :principal"
                        + " AND user_agent = :userAgent")));
    }

    /** Derby has no one-statement upsert that its network server runs: {@link #addToKeylessDayStatements}. */
    @Override
    public SqlStatement addToKeylessDayStatement() {
        throw new UnsupportedOperationException(
                "Derby adds to a keyless day in two statements: addToKeylessDayStatements()");
    }

    /**
     * Inserts the day at zero unless it exists, then adds to it. Two nodes making the same new day at once: the
     * second's insert fails with 23505, its flush fails, and its counts are added at its next flush.
     */
    @Override
    public List<SqlStatement> addToKeylessDayStatements() {
        String key = " WHERE operation = :operation AND principal = :principal AND user_agent = :userAgent"
                + " AND utc_day = :day";
        return Collections.unmodifiableList(Arrays.asList(
                SqlStatement.of("INSERT INTO idempotency_keyless_day (operation, principal, user_agent, utc_day,"
                        + " requests, duplicates, first_seen, last_seen) SELECT CAST(:operation AS VARCHAR(1000)),"
                        + " CAST(:principal AS VARCHAR(1000)), CAST(:userAgent AS VARCHAR(1000)),"
                        + " CAST(:day AS VARCHAR(10)), 0, 0, CAST(:firstSeen AS BIGINT), CAST(:lastSeen AS BIGINT)"
                        + " FROM SYSIBM.SYSDUMMY1 WHERE NOT EXISTS (SELECT 1 FROM idempotency_keyless_day" + key
                        + ")"),
                SqlStatement.of("UPDATE idempotency_keyless_day SET requests = requests + CAST(:requests AS BIGINT),"
                        + " duplicates = duplicates + CAST(:duplicates AS BIGINT),"
                        + " first_seen = CASE WHEN first_seen < CAST(:firstSeen AS BIGINT) THEN first_seen"
                        + " ELSE CAST(:firstSeen AS BIGINT) END,"
                        + " last_seen = CASE WHEN last_seen > CAST(:lastSeen AS BIGINT) THEN last_seen"
                        + " ELSE CAST(:lastSeen AS BIGINT) END" + key)));
    }

    @Override
    public SqlStatement insertRolloutHistoryStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout_history (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, " + NOW + ")");
    }

    @Override
    public SqlStatement.Values withTime(SqlStatement.Values values, String name, Instant time) {
        return values.number(name, time.toEpochMilli());
    }

    /** The DDL's time columns hold milliseconds since the epoch. */
    @Override
    public Instant readInstant(ResultSet row, int column) throws SQLException {
        long millis = row.getLong(column);
        return row.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    /**
     * 40XL1 (a lock wait past {@code derby.locks.waitTimeout}; Derby rolled the transaction back) and XCL52 (a
     * statement cancelled by its query timeout) are waits that ran out; 40001 (deadlock) is the standard class 40,
     * and 23505 the standard class 23.
     */
    @Override
    public Failure classify(SQLException failure) {
        String sqlState = failure.getSQLState() == null ? "" : failure.getSQLState();
        if (sqlState.equals("40XL1") || sqlState.equals("XCL52")) {
            return Failure.WAIT_TIMEOUT;
        }
        return super.classify(failure);
    }
}
