package dev.idempotency.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.tx.LocalTransactions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The purge on a {@code request_result} hash-partitioned by scope, as operations.md describes it, on a real
 * PostgreSQL: small partitions filled in one order, so that the same ctids name expired records in some partitions
 * and live ones in others. Beside the contract, which runs on the tables the filter's DDL makes.
 */
class PostgreSqlPartitionedPurgeTest {
    private static final SqlDialect POSTGRESQL = Engine.dialectNamed("postgresql");
    private static final int RECORDS = 240;
    private static final int BATCH = 7;

    /** postgresql.sql's columns, key and check, partitioned by the key's first column. */
    private static final String PARTITIONED_TABLE = "CREATE TABLE request_result ("
            + " scope text COLLATE \"C\" NOT NULL, operation text COLLATE \"C\" NOT NULL,"
            + " request_key text COLLATE \"C\" NOT NULL, request text NOT NULL, response_status integer,"
            + " response_headers text, response_body bytea, created_at timestamptz NOT NULL,"
            + " expires_at timestamptz NOT NULL,"
            + " CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key),"
            + " CONSTRAINT request_result_key_not_empty CHECK (request_key <> '')) PARTITION BY HASH (scope)";

    private static final EngineConfig DATABASE = PostgreSqlConfig.embedded();

    private String schema;
    /** A second schema, off the search path, that holds one partition. */
    private String elsewhere;

    private LocalTransactions transactions;
    private RequestResultStore records;

    @BeforeEach
    void scratchSchema() throws Exception {
        schema = "partitioned_" + UUID.randomUUID().toString().substring(0, 8);
        elsewhere = schema + "_elsewhere";
        DATABASE.createNamespace(schema);
        DATABASE.createNamespace(elsewhere);
        transactions = new LocalTransactions(DATABASE::connect, POSTGRESQL, schema);
        records = new RequestResultStore(transactions, POSTGRESQL);
    }

    @AfterEach
    void dropScratchSchema() throws Exception {
        DATABASE.execute("DROP SCHEMA " + schema + ", " + elsewhere + " CASCADE");
    }

    @Test
    void purgesExactlyTheExpiredRecordsOfEveryPartition() throws Exception {
        execute(PARTITIONED_TABLE);
        for (int remainder = 0; remainder < 2; remainder++) {
            execute("CREATE TABLE request_result_p" + remainder + " PARTITION OF request_result"
                    + " FOR VALUES WITH (MODULUS 4, REMAINDER " + remainder + ") WITH (fillfactor = 70)");
        }
        // A partition outside the search path: the purge must name it with its schema.
        execute("CREATE TABLE " + elsewhere + ".request_result_p2 PARTITION OF request_result"
                + " FOR VALUES WITH (MODULUS 4, REMAINDER 2) WITH (fillfactor = 70)");
        // A partition split again: its own children are the leaves, and ctids repeat in them too.
        execute("CREATE TABLE request_result_p3 PARTITION OF request_result"
                + " FOR VALUES WITH (MODULUS 4, REMAINDER 3) PARTITION BY HASH (request_key)");
        for (int remainder = 0; remainder < 2; remainder++) {
            execute("CREATE TABLE request_result_p3_" + remainder + " PARTITION OF request_result_p3"
                    + " FOR VALUES WITH (MODULUS 2, REMAINDER " + remainder + ") WITH (fillfactor = 70)");
        }
        execute("CREATE INDEX request_result_expires_at ON request_result (expires_at)");
        // Every third record expired, in one order for all: each partition holds both kinds at its first places.
        execute("INSERT INTO request_result (scope, operation, request_key, request, response_status,"
                + " response_headers, response_body, created_at, expires_at)"
                + " SELECT 'scope-' || (i % 16), 'debit:v1', 'k-' || i, '{}', 200, '{}', '\\x00'::bytea,"
                + " now() - interval '2 days', now() + CASE WHEN i % 3 = 0 THEN interval '-1 day'"
                + " ELSE interval '1 day' END FROM generate_series(0, " + (RECORDS - 1) + ") AS i");
        Set<String> live = keys("expires_at > now()");
        long expired = RECORDS - live.size();
        assertTrue(
                count("SELECT count(*) FROM request_result e JOIN request_result l ON e.ctid = l.ctid"
                                + " AND e.tableoid <> l.tableoid WHERE e.expires_at < now() AND l.expires_at > now()")
                        > 0,
                "no expired record shares its ctid with a live one in another partition; the test proves nothing");

        List<SqlStatement> purges = inTransaction(records::expiredRecordPurges);
        long deleted = purgeAsTheFilterDoes(purges);

        Set<String> left = keys("true");
        Set<String> liveDeleted = new TreeSet<>(live);
        liveDeleted.removeAll(left);
        assertEquals(Set.of(), liveDeleted, "live records the purge deleted");
        assertEquals(live, left, "the records left are exactly the live ones");
        assertEquals(expired, deleted, "records deleted");
        assertEquals(5, purges.size(), "one statement per leaf partition: " + purges);
        assertTrue(
                purges.stream().anyMatch(purge -> purge.toString().contains(elsewhere + ".request_result_p2")),
                "the partition off the search path is named with its schema: " + purges);
    }

    @Test
    void purgesATableThatIsNotPartitionedWithTheOneStatement() throws Exception {
        new FilterSchema(transactions, POSTGRESQL, schema).createMissing();

        List<SqlStatement> purges = inTransaction(records::expiredRecordPurges);

        assertEquals(
                List.of(POSTGRESQL.purgeExpiredRequestsStatement().toString()),
                purges.stream().map(SqlStatement::toString).toList());
    }

    /** As the filter's scheduled purge: each statement in batches, one transaction each, until one is short. */
    private long purgeAsTheFilterDoes(List<SqlStatement> purges) throws Exception {
        long total = 0;
        for (SqlStatement purge : purges) {
            int deleted;
            do {
                deleted = inTransaction(() -> records.purgeExpired(purge, BATCH));
                total += deleted;
            } while (deleted == BATCH);
        }
        return total;
    }

    private Set<String> keys(String condition) throws Exception {
        Set<String> keys = new TreeSet<>();
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT request_key FROM request_result WHERE " + condition)) {
            while (row.next()) {
                keys.add(row.getString(1));
            }
        }
        return keys;
    }

    private long count(String sql) throws Exception {
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private void execute(String sql) throws Exception {
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private <T> T inTransaction(Callable<T> work) throws Exception {
        return StoreContract.inTransaction(transactions, work);
    }
}
