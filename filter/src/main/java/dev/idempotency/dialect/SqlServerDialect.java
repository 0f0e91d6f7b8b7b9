package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * SQL Server 2022 and later: EXPERIMENTAL, written from Microsoft's Transact-SQL reference and the mssql-jdbc
 * documentation, and never run by this build (no SQL Server runs here). Its unit tests check the statements' text
 * and the reading of error codes only; check a real server with the store check before relying on it.
 *
 * <p><b>Claim.</b> {@code INSERT ... SELECT ... WHERE NOT EXISTS (SELECT 1 FROM request_result WITH (UPDLOCK,
 * HOLDLOCK) WHERE <identity>)}. HOLDLOCK (serializable) takes a key-range lock on the identity even when no row has
 * it, and UPDLOCK makes that lock exclusive among claimers, so a concurrent duplicate waits for the first
 * transaction instead of both seeing "absent"; it then finds the committed row (no row inserted: taken) or, after a
 * rollback, inserts. Other identities in the same index gap may wait too. The insert never fails on a duplicate,
 * which matters because with {@code XACT_ABORT ON} any error dooms the application's transaction; a 2627/2601
 * duplicate that still happens reads as "taken" where the transaction survives it.
 *
 * <p><b>Keys.</b> {@code NVARCHAR(255) COLLATE Latin1_General_100_BIN2}: compared by code point, so {@code Key}
 * and {@code key} differ. Three of them make 1,530 bytes: over the 900-byte limit of a clustered index key, so the
 * primary keys are {@code NONCLUSTERED} and the 1,700-byte nonclustered limit applies; the tables cluster on their
 * expiry time, which the purge reads in order. <b>But {@code =} ignores trailing spaces under every collation</b>
 * (ANSI padding), on the primary key too, so {@code key} and {@code key } would share one record. This dialect
 * refuses an identity part that ends in a space ({@link #refusedIdentityPart}) rather than encode it: an HTTP
 * field value never ends in whitespace (RFC 9110, section 5.5), so a key header cannot carry one and only an odd
 * principal or message id could; encoding every part (such as appending a terminator) would keep such parts apart
 * but make the stored keys differ from what every other engine stores and what an operator queries by.
 *
 * <p><b>Waits and errors.</b> The claim's wait is bounded by the JDBC query timeout (mssql-jdbc: SQLSTATE {@code
 * HY008}, "The query has timed out") or by a {@code SET LOCK_TIMEOUT} the application set (1222): both are {@link
 * Failure#WAIT_TIMEOUT}. Neither rolls back the transaction; the store then throws {@code
 * RequestInProgressException}, which makes the transaction roll back anyway. 1205 (deadlock victim; the server has
 * rolled the transaction back) and 3960 (snapshot isolation update conflict) are {@link
 * Failure#TRANSACTION_CONFLICT}; 2627 and 2601 (primary key, unique index) are {@link Failure#DUPLICATE_KEY}.
 *
 * <p><b>Isolation.</b> {@code READ_COMMITTED_SNAPSHOT} does not change the claim's locking read (UPDLOCK, HOLDLOCK);
 * the winner's row is then read by a plain select, which sees what was committed when it starts, after the claim's
 * wait. Under {@code SNAPSHOT} isolation a claim that meets a row committed after its transaction began fails with
 * 3960 or 2627 instead; not checked.
 *
 * <p><b>Times</b> are UTC in {@code DATETIME2}, written with {@code SYSUTCDATETIME()}.
 */
final class SqlServerDialect extends SqlDialect {
    /** The key columns are {@code NVARCHAR(255)}: three fit the 1,700-byte nonclustered key limit (sqlserver.sql). */
    private static final int KEY_COLUMN_LENGTH = 255;

    /** The identity columns, compared with the claimed values; used by each claim's NOT EXISTS. */
    private static final String REQUEST_IDENTITY =
            "scope = :scope AND operation = :operation AND request_key = :requestKey";

    SqlServerDialect(Engine engine) {
        super(engine);
    }

    /**
     * The scratch schema is a database: SQL Server resolves an unqualified table name in the user's default schema,
     * which a session cannot change, but a connection can change its database (mssql-jdbc sends {@code USE}).
     */
    @Override
    public void useSchema(Connection connection, String schema) throws SQLException {
        connection.setCatalog(schema);
    }

    @Override
    public List<String> createSchemaStatements(String schema) {
        return Collections.singletonList("CREATE DATABASE " + schema);
    }

    /** A database in use cannot be dropped: single-user mode first ends any session a failed check left behind. */
    @Override
    public List<String> dropSchemaStatements(String schema) {
        return Collections.unmodifiableList(Arrays.asList(
                "ALTER DATABASE " + schema + " SET SINGLE_USER WITH ROLLBACK IMMEDIATE", "DROP DATABASE " + schema));
    }

    @Override
    public OptionalInt maxIdentityLength() {
        return OptionalInt.of(KEY_COLUMN_LENGTH);
    }

    @Override
    public Optional<String> refusedIdentityPart(String part) {
        if (part.endsWith(" ")) {
            return Optional.of("ends with a space, which SQL Server ignores when it compares keys, so it would share"
                    + " its record with the same text without the trailing space; remove the trailing space");
        }
        return Optional.empty();
    }

    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) SELECT :scope, :operation, :requestKey, :request, SYSUTCDATETIME(),"
                + " DATEADD(SECOND, CAST(:retentionSeconds AS INT), SYSUTCDATETIME())"
                + " WHERE NOT EXISTS (SELECT 1 FROM request_result WITH (UPDLOCK, HOLDLOCK) WHERE "
                + REQUEST_IDENTITY + ")");
    }

    /**
     * READPAST skips rows another transaction holds (a retry replaying an expired record), as SKIP LOCKED does
     * elsewhere, so several nodes can purge at once and a purge never waits; the clustered index on expires_at
     * finds the batch.
     */
    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return SqlStatement.of(
                "DELETE TOP (:batchSize) FROM request_result WITH (READPAST)" + " WHERE expires_at < SYSUTCDATETIME()");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) SELECT :subscriber, :messageId, :payload, :localObject, SYSUTCDATETIME()"
                + " WHERE NOT EXISTS (SELECT 1 FROM processed_message WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE subscriber = :subscriber AND message_id = :messageId)");
    }

    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE TOP (:batchSize) FROM processed_message WITH (READPAST) WHERE processed_at"
                + " < DATEADD(SECOND, -CAST(:retentionSeconds AS INT), SYSUTCDATETIME())");
    }

    /**
     * MERGE alone is not atomic: two sessions can both find no row and both insert. HOLDLOCK keeps the range it
     * read locked until the end of the transaction, so the second waits and then updates. T-SQL requires the
     * terminating semicolon after a MERGE.
     */
    @Override
    public SqlStatement upsertRolloutStatement() {
        return SqlStatement.of("MERGE INTO idempotency_rollout WITH (HOLDLOCK) AS t"
                + " USING (SELECT :operation AS operation, :mode AS mode, :changedBy AS changed_by) AS s"
                + " ON t.operation = s.operation"
                + " WHEN MATCHED THEN UPDATE SET mode = s.mode, changed_by = s.changed_by,"
                + " changed_at = SYSUTCDATETIME()"
                + " WHEN NOT MATCHED THEN INSERT (operation, mode, changed_by, changed_at)"
                + " VALUES (s.operation, s.mode, s.changed_by, SYSUTCDATETIME());");
    }

    /** Race-safe as the rollout upsert is: HOLDLOCK. */
    /** CASE rather than LEAST and GREATEST, which SQL Server has only since 2022. */
    @Override
    public SqlStatement addToKeylessDayStatement() {
        return SqlStatement.of("MERGE INTO idempotency_keyless_day WITH (HOLDLOCK) AS t"
                + " USING (SELECT :operation AS operation, :principal AS principal, :userAgent AS user_agent,"
                + " :day AS utc_day, :requests AS requests, :duplicates AS duplicates, :firstSeen AS first_seen,"
                + " :lastSeen AS last_seen) AS s"
                + " ON t.operation = s.operation AND t.principal = s.principal AND t.user_agent = s.user_agent"
                + " AND t.utc_day = s.utc_day"
                + " WHEN MATCHED THEN UPDATE SET requests = t.requests + s.requests,"
                + " duplicates = t.duplicates + s.duplicates,"
                + " first_seen = CASE WHEN s.first_seen < t.first_seen THEN s.first_seen ELSE t.first_seen END,"
                + " last_seen = CASE WHEN s.last_seen > t.last_seen THEN s.last_seen ELSE t.last_seen END"
                + " WHEN NOT MATCHED THEN INSERT (operation, principal, user_agent, utc_day, requests, duplicates,"
                + " first_seen, last_seen) VALUES (s.operation, s.principal, s.user_agent, s.utc_day, s.requests,"
                + " s.duplicates, s.first_seen, s.last_seen);");
    }

    @Override
    public SqlStatement addToCounterStatement() {
        return SqlStatement.of("MERGE INTO idempotency_counter WITH (HOLDLOCK) AS t"
                + " USING (SELECT :operation AS operation, :counter AS counter, :principal AS principal,"
                + " :userAgent AS user_agent, :amount AS amount) AS s"
                + " ON t.operation = s.operation AND t.counter = s.counter AND t.principal = s.principal"
                + " AND t.user_agent = s.user_agent"
                + " WHEN MATCHED THEN UPDATE SET count = t.count + s.amount, updated_at = SYSUTCDATETIME()"
                + " WHEN NOT MATCHED THEN INSERT (operation, counter, principal, user_agent, count, updated_at)"
                + " VALUES (s.operation, s.counter, s.principal, s.user_agent, s.amount, SYSUTCDATETIME());");
    }

    /** CURRENT_TIMESTAMP is the server's local time here; the DDL keeps UTC. */
    @Override
    public SqlStatement insertRolloutHistoryStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout_history (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, SYSUTCDATETIME())");
    }

    /** {@code DATETIME2} has no zone; the DDL stores UTC, so it is read as UTC whatever the JVM's zone. */
    @Override
    public Instant readInstant(ResultSet row, int column) throws SQLException {
        return readUtc(row, column);
    }

    /**
     * Read by vendor code first: mssql-jdbc reports SQLSTATE 23000 for duplicates and for other constraint
     * violations alike (547 check, 515 NULL), and {@code S0001}-style states for most others.
     */
    @Override
    public Failure classify(SQLException failure) {
        int code = failure.getErrorCode();
        if (code == 1222 || "HY008".equals(failure.getSQLState())) {
            return Failure.WAIT_TIMEOUT;
        }
        if (code == 1205 || code == 3960) {
            return Failure.TRANSACTION_CONFLICT;
        }
        if (code == 2627 || code == 2601) {
            return Failure.DUPLICATE_KEY;
        }
        if ("23000".equals(failure.getSQLState())) {
            return Failure.OTHER;
        }
        return super.classify(failure);
    }
}
