package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import javax.sql.DataSource;

/**
 * Everything that differs between database engines, in one place: the SQL the store, the rollout table, the
 * purge and the consumer run, and how to read the engine's errors. Portable statements live here; each
 * engine overrides only what differs. Nothing outside this package names an engine. Every statement names
 * its parameters ({@link SqlStatement}), so an engine may order, repeat or drop them.
 *
 * <p>Stateless and thread-safe.
 */
public abstract class SqlDialect {
    private final Engine engine;

    SqlDialect(Engine engine) {
        this.engine = engine;
    }

    /**
     * The values of the {@code database} setting, which overrides detection ({@link Engine#settingValues()}; kept
     * here for {@code config.Settings}).
     */
    public static final List<String> SETTING_VALUES = Engine.settingValues();

    /** What a failed statement means to the store. */
    public enum Failure {
        /** The statement waited for a lock longer than its bound: another transaction holds the key. */
        WAIT_TIMEOUT,
        /**
         * The key is held by another transaction that has not ended, and the engine answered at once instead
         * of waiting (H2); the caller may try again until its wait bound.
         */
        KEY_BUSY,
        /** The database aborted the transaction to protect its isolation (serialization failure, deadlock). */
        TRANSACTION_CONFLICT,
        /** A unique or primary key was violated. */
        DUPLICATE_KEY,
        /** Anything else: a real error, never hidden. */
        OTHER
    }

    /**
     * This dialect, or the variant the server behind {@code dataSource} needs: one engine may run in a form that
     * claims differently (MariaDB as a node of a Galera cluster). Used where the {@code database} setting named
     * the engine, so detection did not look at the server. The default opens no connection.
     */
    public SqlDialect forServer(DataSource dataSource) {
        return this;
    }

    /** This dialect, or its variant for the server behind {@code connection}; the default has no variants. */
    SqlDialect forServer(Connection connection) throws SQLException {
        return this;
    }

    /** The engine's name, for logs. */
    public String name() {
        return engine.productName();
    }

    /** The engine this dialect speaks to. */
    public Engine engine() {
        return engine;
    }

    /**
     * Whether the engine has schemas the store check can make a scratch one in; a file database (SQLite) has
     * not, and is checked on the tables it holds.
     */
    public boolean hasSchemas() {
        return true;
    }

    /**
     * Whether a claim, replays included, takes a lock that it keeps until its transaction ends, so that concurrent
     * claims run one after another: on any keys for SQLite (one writer per file), on the same key for Derby (a
     * duplicate's failed insert keeps its lock on the existing row). A duplicate that must not wait then still
     * waits for such a claim, within the shortest JDBC query timeout (on Derby, its own lock wait timeout), and is
     * refused past it.
     */
    public boolean claimsOneAfterAnother() {
        return false;
    }

    /**
     * Makes {@code schema} the one unqualified table names resolve in, on this connection: for the store check,
     * which works in a scratch schema of its own.
     */
    public void useSchema(Connection connection, String schema) throws SQLException {
        // An unquoted name is stored upper-case by some engines (H2), and setSchema takes the stored name.
        boolean upperCase = connection.getMetaData().storesUpperCaseIdentifiers();
        connection.setSchema(upperCase ? schema.toUpperCase(Locale.ROOT) : schema);
    }

    /**
     * Makes a scratch schema for the store check, where {@link #useSchema} can select it; run in order. The schema
     * may be another kind of object where the engine resolves table names differently (a database on MariaDB and
     * SQL Server, a user on Oracle).
     */
    public List<String> createSchemaStatements(String schema) {
        return Collections.singletonList("CREATE SCHEMA " + schema);
    }

    /** Drops a schema {@link #createSchemaStatements} made, and every table in it; run in order. */
    public List<String> dropSchemaStatements(String schema) {
        return Collections.singletonList("DROP SCHEMA " + schema + " CASCADE");
    }

    /**
     * How this engine's SQL names a column of the filter's tables: as written, unless the name is a reserved
     * word there and must be quoted (Oracle's {@code MODE}). For statements written outside the dialect, such as
     * the schema check's.
     */
    public String column(String name) {
        return name;
    }

    /** The class path resource of this engine's DDL, shipped in the filter's jar. */
    public String ddlResource() {
        return engine.ddlResource();
    }

    /**
     * The longest scope, operation or key the key columns hold, in characters, if they are bounded; the store
     * refuses longer ones rather than let the engine cut them.
     */
    public OptionalInt maxIdentityLength() {
        return OptionalInt.empty();
    }

    /**
     * Why this engine would take {@code part} of an identity (a scope, operation, key, subscriber or message id)
     * for another value, so that two identities would share one record; empty if it keeps it apart from every
     * other. The stores refuse such a part before they claim. SQL Server refuses a trailing space, which its
     * {@code =} ignores.
     */
    public Optional<String> refusedIdentityPart(String part) {
        return Optional.empty();
    }

    /**
     * Inserts a provisional record unless one with the same identity exists, waiting for a concurrent
     * inserter to finish where the engine can. Affects one row (claimed) or none (taken); every error other than
     * a duplicate still raises.
     *
     * <p>Where a failed statement may doom the application's transaction (PostgreSQL aborts it; SQL Server does
     * with {@code XACT_ABORT ON}), it never fails on a duplicate. An engine that rolls back only the failed
     * statement and keeps the transaction usable (Oracle's statement-level rollback, H2) may instead raise a
     * duplicate key error ({@link Failure#DUPLICATE_KEY}) when the holder of the identity committed while the
     * insert waited or between its check and its insert; the store reads that as "taken", like no row.
     *
     * <p>Parameters: {@code :scope, :operation, :requestKey, :request} (the canonical request) and {@code
     * :retentionSeconds}.
     */
    public abstract SqlStatement claimStatement();

    /**
     * Prepares a claim ({@link #claimStatement()}, {@link #claimReturningCommittedStatement} or {@link
     * #claimMessageStatement()}) whose wait for an identity another transaction holds ends after {@code
     * waitSeconds}. The default is a JDBC query timeout: it bounds only this statement's wait, costs no extra round
     * trip (unlike {@code SET LOCAL lock_timeout}), and leaves the application's own lock waits alone.
     */
    public PreparedStatement prepareClaim(
            Connection connection, SqlStatement claim, SqlStatement.Values values, int waitSeconds)
            throws SQLException {
        PreparedStatement statement = claim.prepare(connection, values);
        try {
            statement.setQueryTimeout(waitSeconds);
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /**
     * The bound the engine itself puts on every lock wait, where the claim's query timeout cannot shorten it
     * ({@link #prepareClaim}): a duplicate then waits that long whatever the filter's {@code lock-timeout}. Empty
     * where the query timeout bounds the wait (the default).
     */
    public Optional<Duration> lockWaitBound(Connection connection) throws SQLException {
        return Optional.empty();
    }

    /**
     * The claim for an operation that refuses a duplicate in flight instead of waiting for it: like {@link
     * #claimStatement()}, with the same parameters, but it affects no row at once when another transaction holds
     * the identity, instead of waiting for it to end. The default is the claim itself, whose wait the store then
     * bounds with the shortest query timeout JDBC has, one second; engines that can do better override it.
     */
    public SqlStatement claimWithoutWaitingStatement() {
        return claimStatement();
    }

    /**
     * {@code claim} ({@link #claimStatement()} or {@link #claimWithoutWaitingStatement()}) as one query that also
     * returns the record holding the identity, when that record was committed before the statement began: a
     * replay then costs one statement instead of the claim and {@link #selectRequestResultStatement()}. Empty
     * where the engine has no such query (the default). A record committed while the claim waited for its holder
     * is not returned where the statement's snapshot predates it (Read Committed), so the store still reads the
     * winner with a separate statement when the query reports the identity taken but holds no record.
     *
     * <p>Parameters: those of {@code claim}. One row; columns: those of {@link #selectRequestResultStatement()},
     * all null unless the query saw a committed record, then {@code claimed}: 1 if it claimed the identity, else 0.
     */
    public Optional<SqlStatement> claimReturningCommittedStatement(SqlStatement claim) {
        return Optional.empty();
    }

    /**
     * Reads a committed record. Parameters: {@code :scope, :operation, :requestKey}. Columns: request, status,
     * headers JSON, body, expires_at, created_at.
     */
    public SqlStatement selectRequestResultStatement() {
        return SqlStatement.of("SELECT request, response_status, response_headers, response_body, expires_at,"
                + " created_at"
                + " FROM request_result WHERE scope = :scope AND operation = :operation AND request_key = :requestKey");
    }

    /**
     * Writes the final response into the claimed record. Parameters: {@code :status, :headers} (JSON), {@code
     * :body, :scope, :operation, :requestKey}.
     */
    public SqlStatement completeStatement() {
        return SqlStatement.of(
                "UPDATE request_result SET response_status = :status, response_headers = :headers,"
                        + " response_body = :body WHERE scope = :scope AND operation = :operation AND request_key = :requestKey");
    }

    /** Deletes every record of one scope. Parameter: {@code :scope}. */
    public SqlStatement deleteScopeStatement() {
        return SqlStatement.of("DELETE FROM request_result WHERE scope = :scope");
    }

    /**
     * Deletes a bounded batch of records whose {@code expires_at} has passed, without waiting for rows that
     * another transaction holds, from {@code request_result} as the engine's DDL makes it. The store runs {@link
     * #purgeExpiredRequestsStatements} instead, which also covers a table the DDL did not make. Parameter: {@code
     * :batchSize}.
     */
    public abstract SqlStatement purgeExpiredRequestsStatement();

    /**
     * The statements that together reach every expired record of {@code request_result} as the database holds it,
     * each like {@link #purgeExpiredRequestsStatement()}: the purge runs them one after another, each in batches
     * until one comes back short. The default is that statement alone, which is right wherever it names a row
     * uniquely across the whole table; PostgreSQL's is not on a partitioned table, and gets one per partition.
     *
     * @param waitSeconds how long reading the table's layout may wait for a lock
     */
    public List<SqlStatement> purgeExpiredRequestsStatements(Connection connection, int waitSeconds)
            throws SQLException {
        return Collections.singletonList(purgeExpiredRequestsStatement());
    }

    /**
     * Records a processed message unless the subscriber already has it; affects one row or none, like the
     * claim. Parameters: {@code :subscriber, :messageId, :payload} (canonical, or null), {@code :localObject}.
     */
    public abstract SqlStatement claimMessageStatement();

    /** The stored canonical payload of a processed message. Parameters: {@code :subscriber, :messageId}. */
    public SqlStatement selectMessagePayloadStatement() {
        return SqlStatement.of(
                "SELECT payload FROM processed_message WHERE subscriber = :subscriber AND message_id = :messageId");
    }

    /**
     * Deletes a bounded batch of processed messages older than the retention, by the database's clock.
     * Parameters: {@code :retentionSeconds, :batchSize}.
     */
    public abstract SqlStatement purgeProcessedMessagesStatement();

    /** Every operation's rollout mode. Columns: operation, mode, changed_by, changed_at. */
    public SqlStatement selectRolloutStatement() {
        return SqlStatement.of("SELECT operation, mode, changed_by, changed_at FROM idempotency_rollout");
    }

    /**
     * Sets an operation's rollout mode, inserting its row if needed. Parameters: {@code :operation, :mode,
     * :changedBy}.
     */
    public abstract SqlStatement upsertRolloutStatement();

    /**
     * The statements that together do {@link #upsertRolloutStatement()}, run in order in one transaction with the
     * same parameters: that statement alone, unless the engine has no one-statement upsert it can run (Derby).
     */
    public List<SqlStatement> upsertRolloutStatements() {
        return Collections.singletonList(upsertRolloutStatement());
    }

    /**
     * Adds to a counter, inserting its row if needed, atomically even when several nodes add at once.
     * Parameters: {@code :operation, :counter, :principal, :userAgent, :amount}.
     */
    public abstract SqlStatement addToCounterStatement();

    /**
     * The statements that together do {@link #addToCounterStatement()}, each run for every counter before the
     * next, with the same parameters: that statement alone, unless the engine has no one-statement upsert it can
     * run (Derby).
     */
    public List<SqlStatement> addToCounterStatements() {
        return Collections.singletonList(addToCounterStatement());
    }

    /** Every counter. Columns: operation, counter, principal, user_agent, count, updated_at. */
    public SqlStatement selectCountersStatement() {
        return SqlStatement.of(
                "SELECT operation, counter, principal, user_agent, count, updated_at FROM idempotency_counter");
    }

    /**
     * Adds to a client's keyless requests of one UTC day, inserting the row if needed, atomically even when
     * several nodes add at once; {@code first_seen} keeps the smaller and {@code last_seen} the larger.
     * Parameters: {@code :operation, :principal, :userAgent, :day, :requests, :duplicates, :firstSeen,
     * :lastSeen}.
     */
    public abstract SqlStatement addToKeylessDayStatement();

    /**
     * The statements that together do {@link #addToKeylessDayStatement()}, each run for every day before the
     * next, with the same parameters: that statement alone, unless the engine has no one-statement upsert it can
     * run (Derby).
     */
    public List<SqlStatement> addToKeylessDayStatements() {
        return Collections.singletonList(addToKeylessDayStatement());
    }

    /**
     * The keyless days from {@code :since} (an ISO date) on. Columns: operation, principal, user_agent, utc_day,
     * requests, duplicates, first_seen, last_seen.
     */
    public SqlStatement selectKeylessDaysStatement() {
        return SqlStatement.of("SELECT operation, principal, user_agent, utc_day, requests, duplicates, first_seen,"
                + " last_seen FROM idempotency_keyless_day WHERE utc_day >= :since");
    }

    /** Deletes the keyless days before {@code :before} (an ISO date): the history's window has passed them. */
    public SqlStatement deleteKeylessDaysStatement() {
        return SqlStatement.of("DELETE FROM idempotency_keyless_day WHERE utc_day < :before");
    }

    /** Appends a rollout change to the audit history. Parameters: {@code :operation, :mode, :changedBy}. */
    public SqlStatement insertRolloutHistoryStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout_history (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, CURRENT_TIMESTAMP)");
    }

    /**
     * Reads a timestamp column the dialect's DDL declares, as the instant it stores. The default suits types
     * that carry the zone (PostgreSQL {@code timestamptz}, H2 {@code TIMESTAMP WITH TIME ZONE}).
     */
    public Instant readInstant(ResultSet row, int column) throws SQLException {
        Timestamp timestamp = row.getTimestamp(column);
        return timestamp == null ? null : timestamp.toInstant();
    }

    /**
     * {@code values} with {@code time} under {@code name}, as a parameter for a time column the dialect's DDL
     * declares: a timestamp, unless the engine keeps times as numbers (Derby's milliseconds since the epoch). For
     * statements written outside the dialect, such as the store check's.
     */
    public SqlStatement.Values withTime(SqlStatement.Values values, String name, Instant time) {
        return values.timestamp(name, Timestamp.from(time));
    }

    /**
     * Reads a column without a zone that the DDL fills with UTC ({@code DATETIME(6)}, {@code DATETIME2}, {@code
     * TIMESTAMP}), as UTC whatever the JVM's or the session's zone: for engines whose {@link #readInstant} it is.
     */
    static Instant readUtc(ResultSet row, int column) throws SQLException {
        LocalDateTime utc = row.getObject(column, LocalDateTime.class);
        return utc == null ? null : utc.toInstant(ZoneOffset.UTC);
    }

    /**
     * What a failed statement means. The standard SQLSTATE classes are read here (40: transaction rollback,
     * 23: integrity constraint violation); engines add what their codes say beyond them.
     */
    public Failure classify(SQLException failure) {
        String sqlState = failure.getSQLState() == null ? "" : failure.getSQLState();
        if (sqlState.startsWith("40")) {
            return Failure.TRANSACTION_CONFLICT;
        }
        if (sqlState.startsWith("23")) {
            return Failure.DUPLICATE_KEY;
        }
        return Failure.OTHER;
    }

    /** What the first {@link SQLException} in the cause chain means, or {@link Failure#OTHER} if there is none. */
    public Failure classify(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return classify(sql);
            }
        }
        return Failure.OTHER;
    }
}
