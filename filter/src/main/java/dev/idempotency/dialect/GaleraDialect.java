package dev.idempotency.dialect;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * MariaDB 10.11 and later as a node of a Galera 4 cluster, where every node takes writes. On one server a
 * duplicate's insert waits on the first one's uncommitted row; across nodes there is no such lock until a
 * transaction is certified at its commit, so both duplicates would run and the later commit would be aborted
 * ({@code 1213}) after its application had answered. Two changes give every node the one-server behaviour:
 *
 * <ul>
 *   <li>The claim is replicated on its own, as a streaming-replication fragment, before the application runs.
 *       Its row is then locked on every node, so a duplicate's insert on another node waits for the first
 *       transaction and afterwards finds its record, exactly as on one server. Two claims certified at the same
 *       moment: one is aborted before anything has run, and the store claims again in a new transaction.
 *   <li>The claim and the read of a record first wait until the node has applied every transaction the cluster
 *       committed before them ({@code wsrep_sync_wait}), so a retry that lands on another node right after the
 *       first one committed replays instead of running again.
 * </ul>
 *
 * <p>Both are {@code SET STATEMENT} settings, which end with their statement: the application's own statements
 * replicate at commit as usual. A node outside the primary component refuses every statement ({@code 1047},
 * SQLSTATE {@code 08S01}) until it rejoins: the store reports it unavailable, and nothing was written.
 */
final class GaleraDialect extends MariaDbDialect {
    /** Causal reads ({@code 1}: a SELECT waits until the node has applied what the cluster committed before it). */
    private static final String READ_SETTINGS = "SET STATEMENT wsrep_sync_wait = 1 FOR ";

    GaleraDialect() {
        super(Engine.MARIADB);
    }

    @Override
    public String name() {
        return "MariaDB Galera";
    }

    /**
     * The claim replicated on its own (a one-statement streaming-replication fragment), after a causal wait ({@code
     * 4}: INSERT), bounded by {@code max_statement_time}, all in one {@code SET STATEMENT}: the driver sends a query
     * timeout as a {@code SET STATEMENT} of its own, and MariaDB ignores the outer of two nested ones (measured
     * here: the wait ran past a one-second bound).
     */
    @Override
    public PreparedStatement prepareClaim(
            Connection connection, SqlStatement claim, SqlStatement.Values values, int waitSeconds)
            throws SQLException {
        return claim.after("SET STATEMENT max_statement_time = " + waitSeconds + ", wsrep_sync_wait = 4,"
                        + " wsrep_trx_fragment_unit = 'statements', wsrep_trx_fragment_size = 1 FOR ")
                .prepare(connection, values);
    }

    @Override
    public SqlStatement selectRequestResultStatement() {
        return super.selectRequestResultStatement().after(READ_SETTINGS);
    }

    @Override
    public SqlStatement selectMessagePayloadStatement() {
        return super.selectMessagePayloadStatement().after(READ_SETTINGS);
    }
}
