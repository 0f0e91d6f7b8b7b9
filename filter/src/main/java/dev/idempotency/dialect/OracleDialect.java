package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;

/**
 * Oracle Database 23ai and later: EXPERIMENTAL, written from Oracle's SQL Language Reference, Concepts and JDBC
 * guides, and never run by this build (no Oracle runs here). Its unit tests check the statements' text and the
 * reading of error codes only; check a real database with the store check before relying on it.
 *
 * <p><b>Claim.</b> A plain {@code INSERT}. A concurrent duplicate waits on the first transaction's row lock (there
 * is no DML lock timeout); after a rollback its insert succeeds, after a commit it fails with ORA-00001. Unlike
 * PostgreSQL, Oracle rolls back only the failed statement (statement-level rollback), and the application's
 * transaction stays usable, so the store may read the duplicate as "taken" ({@link Failure#DUPLICATE_KEY}) and
 * select the winner's row. This is why the claim may fail on a duplicate here although it never does on the other
 * engines ({@link SqlDialect#claimStatement()}). The {@code IGNORE_ROW_ON_DUPKEY_INDEX} hint would turn the duplicate
 * into "no row", but a hint Oracle cannot apply is silently ignored, so the ORA-00001 path would be needed anyway;
 * one path is simpler to trust. The wait is bounded by the store's JDBC query timeout: ORA-01013, which rolls back
 * the statement, is {@link Failure#WAIT_TIMEOUT}. {@code MERGE} is not race-safe on Oracle (two sessions both find
 * no row; one gets ORA-00001), so the rollout and counter upserts can fail when two nodes write the same new row at
 * once: an administrator repeats the change, and the counter flush adds its counts at the next flush.
 *
 * <p><b>Keys.</b> {@code VARCHAR2(255 CHAR)} without a declared collation: that works on a default database,
 * whereas {@code COLLATE BINARY} on a column needs {@code MAX_STRING_SIZE=EXTENDED} (ORA-43929). VARCHAR2 compares
 * without blank-padding, and the primary key's index compares bytes whatever the session says, so {@code Key},
 * {@code key} and {@code key } are three records. A session with {@code NLS_COMP=LINGUISTIC} would compare {@code =}
 * in WHERE clauses by its {@code NLS_SORT}, perhaps ignoring case, and read another identity's record; so every
 * statement that finds a record by its identity also compares {@code NLSSORT(..., 'NLS_SORT=BINARY')}, a RAW that is
 * always compared byte by byte. With the default {@code NLS_COMP=BINARY} the primary key still finds the row; in a
 * linguistic session the result stays right but the lookup scans. Three such columns take 3,060 bytes in AL32UTF8,
 * within the index key limit of an 8 KB block (about 6,400 bytes). The database character set should be AL32UTF8
 * (the default): a character it cannot hold becomes a replacement character, and two keys could become one.
 *
 * <p><b>Empty text is NULL.</b> The store refuses an empty key, and the NOT NULL key columns refuse an empty scope
 * or operation (ORA-01400, an error, not "taken"). The counters' principal and user agent are empty for the outcome
 * counters, so those two columns are nullable here, under a unique constraint (which treats equal NULLs in a
 * composite key as duplicates) instead of a primary key, and the counter upsert matches them with {@code DECODE},
 * which takes two NULLs as equal.
 *
 * <p><b>Other.</b> Times are UTC in {@code TIMESTAMP}, written with {@code SYS_EXTRACT_UTC(SYSTIMESTAMP)}. {@code
 * MODE} is a reserved word and is quoted ({@link #column}). ORA-00060 (deadlock) and ORA-08177 (serialization
 * failure) are {@link Failure#TRANSACTION_CONFLICT}; ORA-00054 and ORA-30006 (resource busy) are {@link
 * Failure#WAIT_TIMEOUT}.
 */
final class OracleDialect extends SqlDialect {
    /** The key columns are {@code VARCHAR2(255 CHAR)} (oracle.sql). */
    private static final int KEY_COLUMN_LENGTH = 255;

    /** UTC now, as the DDL's {@code TIMESTAMP} columns keep it. */
    private static final String NOW = "SYS_EXTRACT_UTC(SYSTIMESTAMP)";

    OracleDialect(Engine engine) {
        super(engine);
    }

    /** A schema is a user here, made by {@link #createSchemaStatements}. */
    @Override
    public void useSchema(Connection connection, String schema) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("ALTER SESSION SET CURRENT_SCHEMA = " + schema);
        }
    }

    /**
     * A user without a password (a schema-only account) that may fill its tables: the store check creates them
     * there with {@code CREATE ANY TABLE}, which the checking user then needs, with {@code CREATE USER}.
     */
    @Override
    public List<String> createSchemaStatements(String schema) {
        return Collections.unmodifiableList(Arrays.asList(
                "CREATE USER " + schema + " NO AUTHENTICATION", "GRANT UNLIMITED TABLESPACE TO " + schema));
    }

    @Override
    public List<String> dropSchemaStatements(String schema) {
        return Collections.singletonList("DROP USER " + schema + " CASCADE");
    }

    @Override
    public String column(String name) {
        return name.equals("mode") ? "\"MODE\"" : name;
    }

    @Override
    public OptionalInt maxIdentityLength() {
        return OptionalInt.of(KEY_COLUMN_LENGTH);
    }

    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) VALUES (:scope, :operation, :requestKey, :request, " + NOW + ", " + NOW
                + " + NUMTODSINTERVAL(:retentionSeconds, 'SECOND'))");
    }

    @Override
    public SqlStatement selectRequestResultStatement() {
        return SqlStatement.of("SELECT request, response_status, response_headers, response_body, expires_at,"
                + " created_at FROM request_result WHERE " + requestIdentity());
    }

    @Override
    public SqlStatement completeStatement() {
        return SqlStatement.of("UPDATE request_result SET response_status = :status, response_headers = :headers,"
                + " response_body = :body WHERE " + requestIdentity());
    }

    @Override
    public SqlStatement deleteScopeStatement() {
        return SqlStatement.of("DELETE FROM request_result WHERE " + sameText("scope", "scope"));
    }

    /**
     * ROWID picks the batch the index on expires_at found. A DELETE has no SKIP LOCKED in Oracle, so a purge waits
     * for a retry that holds an expired row, up to the store's purge statement timeout; the next run tries again.
     */
    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return SqlStatement.of("DELETE FROM request_result WHERE ROWID IN (SELECT ROWID FROM request_result"
                + " WHERE expires_at < " + NOW + " FETCH FIRST :batchSize ROWS ONLY)");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) VALUES (:subscriber, :messageId, :payload, :localObject, " + NOW + ")");
    }

    @Override
    public SqlStatement selectMessagePayloadStatement() {
        return SqlStatement.of("SELECT payload FROM processed_message WHERE " + sameText("subscriber", "subscriber")
                + " AND " + sameText("message_id", "messageId"));
    }

    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE FROM processed_message WHERE ROWID IN (SELECT ROWID FROM processed_message"
                + " WHERE processed_at < " + NOW + " - NUMTODSINTERVAL(:retentionSeconds, 'SECOND')"
                + " FETCH FIRST :batchSize ROWS ONLY)");
    }

    @Override
    public SqlStatement selectRolloutStatement() {
        return SqlStatement.of("SELECT operation, \"MODE\", changed_by, changed_at FROM idempotency_rollout");
    }

    @Override
    public SqlStatement upsertRolloutStatement() {
        return SqlStatement.of("MERGE INTO idempotency_rollout t USING (SELECT :operation AS operation, :mode AS m,"
                + " :changedBy AS changed_by FROM DUAL) s ON (t.operation = s.operation)"
                + " WHEN MATCHED THEN UPDATE SET t.\"MODE\" = s.m, t.changed_by = s.changed_by, t.changed_at = "
                + NOW
                + " WHEN NOT MATCHED THEN INSERT (operation, \"MODE\", changed_by, changed_at)"
                + " VALUES (s.operation, s.m, s.changed_by, " + NOW + ")");
    }

    @Override
    public SqlStatement addToKeylessDayStatement() {
        return SqlStatement.of("MERGE INTO idempotency_keyless_day t USING (SELECT :operation AS operation,"
                + " :principal AS principal, :userAgent AS user_agent, :day AS utc_day, :requests AS requests,"
                + " :duplicates AS duplicates, :firstSeen AS first_seen, :lastSeen AS last_seen FROM DUAL) s"
                + " ON (t.operation = s.operation AND t.principal = s.principal AND t.user_agent = s.user_agent"
                + " AND t.utc_day = s.utc_day)"
                + " WHEN MATCHED THEN UPDATE SET t.requests = t.requests + s.requests,"
                + " t.duplicates = t.duplicates + s.duplicates, t.first_seen = LEAST(t.first_seen, s.first_seen),"
                + " t.last_seen = GREATEST(t.last_seen, s.last_seen)"
                + " WHEN NOT MATCHED THEN INSERT (operation, principal, user_agent, utc_day, requests, duplicates,"
                + " first_seen, last_seen) VALUES (s.operation, s.principal, s.user_agent, s.utc_day, s.requests,"
                + " s.duplicates, s.first_seen, s.last_seen)");
    }

    @Override
    public SqlStatement addToCounterStatement() {
        return SqlStatement.of("MERGE INTO idempotency_counter t USING (SELECT :operation AS operation,"
                + " :counter AS counter, :principal AS principal, :userAgent AS user_agent, :amount AS amount"
                + " FROM DUAL) s ON (t.operation = s.operation AND t.counter = s.counter"
                + " AND DECODE(t.principal, s.principal, 1, 0) = 1 AND DECODE(t.user_agent, s.user_agent, 1, 0) = 1)"
                + " WHEN MATCHED THEN UPDATE SET t.count = t.count + s.amount, t.updated_at = " + NOW
                + " WHEN NOT MATCHED THEN INSERT (operation, counter, principal, user_agent, count, updated_at)"
                + " VALUES (s.operation, s.counter, s.principal, s.user_agent, s.amount, " + NOW + ")");
    }

    @Override
    public SqlStatement insertRolloutHistoryStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout_history (operation, \"MODE\", changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, " + NOW + ")");
    }

    /** {@code TIMESTAMP} has no zone; the DDL stores UTC, so it is read as UTC whatever the JVM's zone. */
    @Override
    public Instant readInstant(ResultSet row, int column) throws SQLException {
        return readUtc(row, column);
    }

    /**
     * Read by vendor code (ORA-nnnnn is error code nnnnn): ojdbc reports SQLSTATE 23000 for a duplicate and for a
     * NULL in a NOT NULL column (ORA-01400) alike, and 72000 for most others.
     */
    @Override
    public Failure classify(SQLException failure) {
        int code = failure.getErrorCode();
        if (code == 1013 || code == 54 || code == 30006) {
            return Failure.WAIT_TIMEOUT;
        }
        if (code == 60 || code == 8177) {
            return Failure.TRANSACTION_CONFLICT;
        }
        if (code == 1) {
            return Failure.DUPLICATE_KEY;
        }
        if ("23000".equals(failure.getSQLState())) {
            return Failure.OTHER;
        }
        return super.classify(failure);
    }

    private static String requestIdentity() {
        return sameText("scope", "scope") + " AND " + sameText("operation", "operation") + " AND "
                + sameText("request_key", "requestKey");
    }

    /**
     * The column equals the parameter, also byte by byte: the first comparison lets the primary key find the row,
     * the second keeps a session with {@code NLS_COMP=LINGUISTIC} from matching another identity.
     */
    private static String sameText(String column, String parameter) {
        return column + " = :" + parameter + " AND NLSSORT(" + column + ", 'NLS_SORT=BINARY') = NLSSORT(:" + parameter
                + ", 'NLS_SORT=BINARY')";
    }
}
