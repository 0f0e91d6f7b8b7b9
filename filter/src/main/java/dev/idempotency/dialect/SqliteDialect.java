package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;

/**
 * SQLite 3.42 and later, through the xerial driver ({@code org.xerial:sqlite-jdbc}). One database file has one
 * writer at a time, so covered requests on one file run one after another, independent keys included.
 *
 * <p>The claim is {@code INSERT ... ON CONFLICT DO NOTHING}, and it is the first statement of the filter's
 * transaction: SQLite takes the write lock there, before the statement reads anything, so a concurrent duplicate
 * waits in the driver's busy handler until the first transaction ends and then sees its row (it committed) or
 * inserts its own (it rolled back). That is why the default {@code transaction_mode=DEFERRED} is enough: the
 * filter's transactions begin as writers without {@code IMMEDIATE}, whose {@code BEGIN} takes the lock when the
 * connection joins the transaction, and after every commit. The wait is bounded by the claim's JDBC query
 * timeout, which this driver applies as the busy timeout of that one statement. {@code ON CONFLICT} and not
 * {@code INSERT OR IGNORE}, which would also skip a NOT NULL or CHECK failure silently.
 *
 * <p>Errors are read by the driver's extended result code: {@code SQLSTATE} is always null, and the primary code
 * 5 (busy) mixes a wait that ran out with a snapshot that can no longer write.
 */
final class SqliteDialect extends SqlDialect {
    /** Milliseconds since the epoch, UTC: the DDL's time columns hold them ({@code unixepoch} needs 3.42). */
    private static final String NOW_MILLIS = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

    private static final int SQLITE_BUSY = 5;
    private static final int SQLITE_BUSY_RECOVERY = 261;
    private static final int SQLITE_BUSY_SNAPSHOT = 517;
    private static final int SQLITE_BUSY_TIMEOUT = 773;
    private static final int SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
    private static final int SQLITE_CONSTRAINT_UNIQUE = 2067;

    SqliteDialect(Engine engine) {
        super(engine);
    }

    /** A database file has no schemas: the store check works on the tables in the file ({@code --schema main}). */
    @Override
    public boolean hasSchemas() {
        return false;
    }

    /** The claim is a write, and the file has one writer: a replay's claim holds it until its transaction ends. */
    @Override
    public boolean claimsOneAfterAnother() {
        return true;
    }

    @Override
    public void useSchema(Connection connection, String schema) {
        // Nothing to select: unqualified names resolve in the file's main database.
    }

    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) VALUES (:scope, :operation, :requestKey, :request, " + NOW_MILLIS + ", "
                + NOW_MILLIS + " + :retentionSeconds * 1000) ON CONFLICT (scope, operation, request_key) DO NOTHING");
    }

    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return SqlStatement.of("DELETE FROM request_result WHERE rowid IN (SELECT rowid FROM request_result"
                + " WHERE expires_at < " + NOW_MILLIS + " LIMIT :batchSize)");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) VALUES (:subscriber, :messageId, :payload, :localObject, " + NOW_MILLIS + ")"
                + " ON CONFLICT (subscriber, message_id) DO NOTHING");
    }

    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE FROM processed_message WHERE rowid IN (SELECT rowid FROM processed_message"
                + " WHERE processed_at < " + NOW_MILLIS + " - :retentionSeconds * 1000 LIMIT :batchSize)");
    }

    @Override
    public SqlStatement upsertRolloutStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, " + NOW_MILLIS + ") ON CONFLICT (operation) DO UPDATE"
                + " SET mode = excluded.mode, changed_by = excluded.changed_by, changed_at = excluded.changed_at");
    }

    /** SQLite's two-argument {@code min} and {@code max} are its scalar LEAST and GREATEST. */
    @Override
    public SqlStatement addToKeylessDayStatement() {
        return SqlStatement.of("INSERT INTO idempotency_keyless_day (operation, principal, user_agent, utc_day,"
                + " requests, duplicates, first_seen, last_seen) VALUES (:operation, :principal, :userAgent, :day,"
                + " :requests, :duplicates, :firstSeen, :lastSeen)"
                + " ON CONFLICT (operation, principal, user_agent, utc_day) DO UPDATE"
                + " SET requests = idempotency_keyless_day.requests + excluded.requests,"
                + " duplicates = idempotency_keyless_day.duplicates + excluded.duplicates,"
                + " first_seen = min(idempotency_keyless_day.first_seen, excluded.first_seen),"
                + " last_seen = max(idempotency_keyless_day.last_seen, excluded.last_seen)");
    }

    @Override
    public SqlStatement addToCounterStatement() {
        return SqlStatement.of("INSERT INTO idempotency_counter (operation, counter, principal, user_agent, count,"
                + " updated_at) VALUES (:operation, :counter, :principal, :userAgent, :amount, " + NOW_MILLIS + ")"
                + " ON CONFLICT (operation, counter, principal, user_agent) DO UPDATE"
                + " SET count = idempotency_counter.count + excluded.count, updated_at = excluded.updated_at");
    }

    @Override
    public SqlStatement insertRolloutHistoryStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout_history (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, " + NOW_MILLIS + ")");
    }

    /** The DDL's time columns hold milliseconds since the epoch. */
    @Override
    public Instant readInstant(ResultSet row, int column) throws SQLException {
        long millis = row.getLong(column);
        return row.wasNull() ? null : Instant.ofEpochMilli(millis);
    }

    /**
     * Busy past the busy timeout (5, and its recovery and timeout variants) is a wait that ran out; busy-snapshot
     * (517) is a transaction that read an older version and can never write: it must roll back and start again.
     * A primary key or unique violation (1555, 2067) is a duplicate.
     */
    @Override
    public Failure classify(SQLException failure) {
        switch (resultCode(failure)) {
            case SQLITE_BUSY_SNAPSHOT:
                return Failure.TRANSACTION_CONFLICT;
            case SQLITE_BUSY:
            case SQLITE_BUSY_RECOVERY:
            case SQLITE_BUSY_TIMEOUT:
                return Failure.WAIT_TIMEOUT;
            case SQLITE_CONSTRAINT_PRIMARYKEY:
            case SQLITE_CONSTRAINT_UNIQUE:
                return Failure.DUPLICATE_KEY;
            default:
                // Not the driver's own: a container's wrapper may carry a standard SQLSTATE.
                return super.classify(failure);
        }
    }

    /**
     * The extended result code the xerial driver keeps in {@code SQLiteException.getResultCode().code}, read
     * reflectively so that the filter does not depend on the driver; the primary code for any other exception.
     */
    static int resultCode(SQLException failure) {
        try {
            Object resultCode = failure.getClass().getMethod("getResultCode").invoke(failure);
            return resultCode.getClass().getField("code").getInt(resultCode);
        } catch (ReflectiveOperationException | RuntimeException notTheDriversException) {
            return failure.getErrorCode();
        }
    }
}
