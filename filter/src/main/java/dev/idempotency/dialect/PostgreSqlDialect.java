package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL 13 and later. The claim is {@code INSERT ... ON CONFLICT DO NOTHING}: a concurrent
 * duplicate blocks on the primary key's unique index until the first transaction ends, then inserts
 * (the first rolled back) or skips (it committed). It runs inside a query that also returns a record
 * committed before it began, so a replay is one statement ({@link #claimReturningCommittedStatement}).
 */
final class PostgreSqlDialect extends SqlDialect {

    PostgreSqlDialect(Engine engine) {
        super(engine);
    }

    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) VALUES (:scope, :operation, :requestKey, :request, now(),"
                + " now() + :retentionSeconds * interval '1 second')"
                + " ON CONFLICT (scope, operation, request_key) DO NOTHING");
    }

    /**
     * The claim behind a transaction-scoped advisory lock on the identity's 64-bit hash, which every claim of an
     * operation that refuses duplicates takes: a duplicate that cannot take it at once inserts nothing and finds no
     * committed row, so the key is in flight; one that takes it inserts, or skips a committed row as the waiting
     * claim does. A hash collision between two keys of such operations, about one in 2^32 at 2^32 keys in flight,
     * only refuses the second for as long as the first runs.
     */
    @Override
    public SqlStatement claimWithoutWaitingStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) SELECT :scope, :operation, :requestKey, :request, now(),"
                + " now() + :retentionSeconds * interval '1 second'"
                // Length-prefixed, so that no two identities hash the same text (text cannot hold a NUL separator).
                + " WHERE pg_try_advisory_xact_lock(hashtextextended(length(:scope) || ':' || :scope || ':'"
                + " || length(:operation) || ':' || :operation || ':' || :requestKey, 0))"
                + " ON CONFLICT (scope, operation, request_key) DO NOTHING");
    }

    /**
     * The claim in a data-modifying {@code WITH}, and the record read beside it: the main query shares the
     * insert's snapshot, so it sees a record committed before the statement began (the common replay, a retry
     * after the first request finished), never one committed while the insert waited for its holder (Read
     * Committed: the store then reads it with a separate statement), and never the row the insert itself made
     * ("WITH Queries", Data-Modifying Statements in WITH, in PostgreSQL's manual).
     */
    @Override
    public Optional<SqlStatement> claimReturningCommittedStatement(SqlStatement claim) {
        return Optional.of(SqlStatement.of("WITH claim AS (" + claim + " RETURNING 1)"
                + " SELECT r.request, r.response_status, r.response_headers, r.response_body, r.expires_at,"
                + " r.created_at, (SELECT count(*) FROM claim) AS claimed"
                + " FROM (VALUES (0)) AS one LEFT JOIN request_result r ON NOT EXISTS (SELECT 1 FROM claim)"
                + " AND r.scope = :scope AND r.operation = :operation AND r.request_key = :requestKey"));
    }

    /**
     * On a table as {@code postgresql.sql} makes it: ctid picks the rows the index on expires_at found; SKIP LOCKED
     * lets several nodes purge at once, and never makes a purge wait for a retry that holds a row (that retry then
     * replays it). Wrong on a partitioned table, where the store runs {@link #purgeExpiredRequestsStatements}.
     */
    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return purgeExpiredRequestsFrom("request_result");
    }

    /**
     * One statement per leaf partition of a partitioned {@code request_result}, naming the partition in both the
     * DELETE and its SELECT: a ctid is a place in one partition's heap, so on the parent {@code ctid = ANY (...)}
     * would delete the rows at the same places in every other partition, expired or not. A table that is not
     * partitioned has no leaves ({@code pg_partition_tree} lists nothing for it) and keeps the one statement.
     */
    @Override
    public List<SqlStatement> purgeExpiredRequestsStatements(Connection connection, int waitSeconds)
            throws SQLException {
        List<SqlStatement> purges = new ArrayList<>();
        // The name resolves on the search path, as the purge's own statements do; regclass prints each leaf
        // quoted where it must be, and with its schema where the search path does not reach it.
        try (PreparedStatement leaves = connection.prepareStatement(
                "SELECT relid::regclass::text FROM pg_partition_tree('request_result') WHERE isleaf")) {
            // Listing the partitions waits for DDL on them, such as a DETACH PARTITION.
            leaves.setQueryTimeout(waitSeconds);
            try (ResultSet leaf = leaves.executeQuery()) {
                while (leaf.next()) {
                    purges.add(purgeExpiredRequestsFrom(leaf.getString(1)));
                }
            }
        }
        return purges.isEmpty()
                ? Collections.singletonList(purgeExpiredRequestsStatement())
                : Collections.unmodifiableList(purges);
    }

    private static SqlStatement purgeExpiredRequestsFrom(String table) {
        return SqlStatement.of("DELETE FROM " + table + " WHERE ctid = ANY (ARRAY(SELECT ctid FROM " + table
                + " WHERE expires_at < now() LIMIT :batchSize FOR UPDATE SKIP LOCKED))");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) VALUES (:subscriber, :messageId, :payload, :localObject, now())"
                + " ON CONFLICT (subscriber, message_id) DO NOTHING");
    }

    /** A bounded batch: ctid picks the rows, the index on processed_at finds them. */
    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE FROM processed_message WHERE ctid = ANY (ARRAY(SELECT ctid FROM"
                + " processed_message WHERE processed_at < now() - :retentionSeconds * interval '1 second'"
                + " LIMIT :batchSize))");
    }

    @Override
    public SqlStatement upsertRolloutStatement() {
        return SqlStatement.of("INSERT INTO idempotency_rollout (operation, mode, changed_by, changed_at)"
                + " VALUES (:operation, :mode, :changedBy, now()) ON CONFLICT (operation) DO UPDATE"
                + " SET mode = EXCLUDED.mode, changed_by = EXCLUDED.changed_by, changed_at = EXCLUDED.changed_at");
    }

    @Override
    public SqlStatement addToKeylessDayStatement() {
        return SqlStatement.of("INSERT INTO idempotency_keyless_day (operation, principal, user_agent, utc_day,"
                + " requests, duplicates, first_seen, last_seen) VALUES (:operation, :principal, :userAgent, :day,"
                + " :requests, :duplicates, :firstSeen, :lastSeen)"
                + " ON CONFLICT (operation, principal, user_agent, utc_day) DO UPDATE"
                + " SET requests = idempotency_keyless_day.requests + EXCLUDED.requests,"
                + " duplicates = idempotency_keyless_day.duplicates + EXCLUDED.duplicates,"
                + " first_seen = LEAST(idempotency_keyless_day.first_seen, EXCLUDED.first_seen),"
                + " last_seen = GREATEST(idempotency_keyless_day.last_seen, EXCLUDED.last_seen)");
    }

    @Override
    public SqlStatement addToCounterStatement() {
        return SqlStatement.of("INSERT INTO idempotency_counter (operation, counter, principal, user_agent, count,"
                + " updated_at) VALUES (:operation, :counter, :principal, :userAgent, :amount, now())"
                + " ON CONFLICT (operation, counter, principal, user_agent) DO UPDATE"
                + " SET count = idempotency_counter.count + EXCLUDED.count, updated_at = EXCLUDED.updated_at");
    }

    /** 57014 query_canceled (the JDBC query timeout), 55P03 lock_not_available (a lock_timeout). */
    @Override
    public Failure classify(SQLException failure) {
        String sqlState = failure.getSQLState() == null ? "" : failure.getSQLState();
        if (sqlState.equals("57014") || sqlState.equals("55P03")) {
            return Failure.WAIT_TIMEOUT;
        }
        return super.classify(failure);
    }
}
