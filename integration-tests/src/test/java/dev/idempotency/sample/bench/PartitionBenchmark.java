package dev.idempotency.sample.bench;

import dev.idempotency.IdempotencyException;
import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.dialect.SqlStatement.Values;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.store.FilterSchema;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The road to 10⁹ records, the part one machine can measure: {@code request_result} as the filter's DDL makes it,
 * and the same table hash-partitioned by scope ({@code bench.partitions} partitions, 16 by default), each filled
 * with {@code bench.rows} records (10 million by default), half of them expired. Then, in one run, side by side:
 * the request path's statements (a claim, a duplicate claim, a lookup by primary key) and the purge, in batches of
 * {@code bench.batch} rows (1,000), one transaction each. PostgreSQL only, durable; no application server.
 *
 * <p>Before filling, it checks on small tables what partitioning does to the filter's own statements: whether
 * a range partition on {@code expires_at} can hold the key, whether each statement still works on hash
 * partitions, and how many rows, and which, one batch of each purge statement deletes. The dialect's ctid statement
 * on the whole table names rows by ctid, which is unique only within one partition: on a partitioned table it
 * deletes rows it did not pick, expired or not. So the filter runs it on each leaf partition in turn
 * ({@link SqlDialect#purgeExpiredRequestsStatements}), and on the partitioned table the purge is measured as that
 * and the other corrections: one statement that names each row by (tableoid, ctid), and one that names it by
 * primary key (for one slice: its plan is the planner's choice).
 *
 * <p>The purges run in slices of two seconds in turn, each until it has run {@code bench.purgeSeconds} (90) or
 * found nothing left, so that the machine's noise slows each alike.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests -Dbench.main=PartitionBenchmark
 * -pl filter,cdi,testkit,store-check,adopt,sample-war,integration-tests}; {@code -Dbench.claims} (3,000) sets how
 * many claims each table takes.
 */
public final class PartitionBenchmark {
    private static final String PLAIN = "plain";
    private static final String HASHED = "hashed";
    private static final String PLAIN_CHECK = "plain_check";
    private static final String HASHED_CHECK = "hashed_check";
    private static final long CHECK_ROWS = 20_000;
    private static final long FILL_STEP = 1_000_000;
    private static final long SLICE_NANOS = 2_000_000_000L;
    private static final int WARMUP_CLAIMS = 300;

    /** The filter's columns and check, as postgresql.sql declares them; the key and the table's options follow. */
    private static final String COLUMNS = "CREATE TABLE request_result ("
            + " scope text COLLATE \"C\" NOT NULL, operation text COLLATE \"C\" NOT NULL,"
            + " request_key text COLLATE \"C\" NOT NULL, request text NOT NULL, response_status integer,"
            + " response_headers text, response_body bytea, created_at timestamptz NOT NULL,"
            + " expires_at timestamptz NOT NULL,"
            + " CONSTRAINT request_result_key_not_empty CHECK (request_key <> '')";

    private static final String ADD_KEY =
            "ALTER TABLE request_result ADD CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key)";
    private static final String ADD_EXPIRY_INDEX =
            "CREATE INDEX request_result_expires_at ON request_result (expires_at)";

    /**
     * The dialect's purge with each row named by its partition and its place in it: ctid alone names a place in
     * one partition's heap, and the same ctid names a row in every other partition. The ctids still pick the rows
     * to read, so each partition reads at most a batch's worth by ctid whatever join the planner chooses, and the
     * pairs keep only the rows picked; the locking select runs once, in the WITH.
     */
    private static final SqlStatement PURGE_BY_PARTITION_AND_CTID = SqlStatement.of("WITH picked AS (SELECT"
            + " tableoid, ctid FROM request_result WHERE expires_at < now() LIMIT :batchSize FOR UPDATE SKIP LOCKED)"
            + " DELETE FROM request_result WHERE ctid = ANY (ARRAY(SELECT ctid FROM picked))"
            + " AND (tableoid, ctid) IN (SELECT tableoid, ctid FROM picked)");

    /** The dialect's purge with each row named by its primary key, which is unique across partitions. */
    private static final SqlStatement PURGE_BY_KEY = SqlStatement.of("DELETE FROM request_result"
            + " WHERE (scope, operation, request_key) IN (SELECT scope, operation, request_key FROM request_result"
            + " WHERE expires_at < now() LIMIT :batchSize FOR UPDATE SKIP LOCKED)");

    private static final SqlDialect POSTGRESQL = Engine.dialectNamed("postgresql");

    private PartitionBenchmark() {}

    public static void main(String[] args) throws Exception {
        long rows = Long.getLong("bench.rows", 10_000_000L);
        int partitions = Integer.getInteger("bench.partitions", 16);
        int batch = Integer.getInteger("bench.batch", 1000);
        int claims = Integer.getInteger("bench.claims", 3000);
        long purgeNanos = Integer.getInteger("bench.purgeSeconds", 90) * 1_000_000_000L;
        EmbeddedPostgres postgres = PostgresExtension.startForBenchmark(true);
        DataSource database = postgres.getPostgresDatabase();
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement()) {
            System.out.printf(
                    "PostgreSQL %s, durability read back from the database: %s; %d cores, Java %s%n",
                    show(statement, "server_version"),
                    durability(statement),
                    Runtime.getRuntime().availableProcessors(),
                    System.getProperty("java.version"));
            System.out.println();
            checkRangeOnExpiry(statement);
            checkStatementsOnHashPartitions(postgres, statement, partitions);
            checkPurges(database, batch);

            System.out.printf(
                    "%nFilling each table with %,d records (half expired): INSERT … SELECT generate_series, %,d rows"
                            + " a statement, into the table without its two indexes; then the primary key and the"
                            + " expires_at index built (maintenance_work_mem 1GB), VACUUM ANALYZE, CHECKPOINT."
                            + " The same durable server throughout.%n",
                    rows, FILL_STEP);
            create(statement, PLAIN, 0);
            fill(statement, PLAIN, rows);
            create(statement, HASHED, partitions);
            fill(statement, HASHED, rows);
            statement.execute("CHECKPOINT");
            System.out.println();
            System.out.println("| table | records | expired | table (MB) | indexes (MB) | total (MB) | bytes per"
                    + " record | records per partition (least–most) |");
            System.out.println("|---|---:|---:|---:|---:|---:|---:|---|");
            Map<String, long[]> before = new LinkedHashMap<>();
            for (String schema : List.of(PLAIN, HASHED)) {
                before.put(schema, counts(statement, schema));
                printSize(statement, schema, before.get(schema));
            }

            requestPath(database, rows, claims);
            purges(database, batch, purgeNanos);

            System.out.println();
            System.out.println("After the purges (and the request path's claims): is every record that had not"
                    + " expired still there?");
            for (String schema : List.of(PLAIN, HASHED)) {
                long[] after = counts(statement, schema);
                long expectedLive = before.get(schema)[0] - before.get(schema)[1] + WARMUP_CLAIMS + claims;
                System.out.printf(
                        "- %s: %,d records, %,d of them expired; %,d not expired, expected %,d: %s%n",
                        schema,
                        after[0],
                        after[1],
                        after[0] - after[1],
                        expectedLive,
                        after[0] - after[1] == expectedLive ? "yes" : "NO");
            }
        }
    }

    /**
     * A range partition on expires_at, which would let retention drop a whole partition, cannot keep the key
     * unique: PostgreSQL enforces a unique constraint on a partitioned table one partition at a time, so it
     * requires the partition key's columns in it, and a key that includes expires_at is unique only per
     * (key, expiry).
     */
    private static void checkRangeOnExpiry(Statement statement) throws SQLException {
        statement.execute("CREATE SCHEMA by_expiry");
        statement.execute("SET search_path = by_expiry");
        System.out.println("Range partitions on expires_at:");
        System.out.println("- with the filter's primary key: "
                + outcome(() -> statement.execute(COLUMNS + ", CONSTRAINT request_result_pkey"
                        + " PRIMARY KEY (scope, operation, request_key)) PARTITION BY RANGE (expires_at)")));
        statement.execute(COLUMNS + ", CONSTRAINT request_result_pkey"
                + " PRIMARY KEY (scope, operation, request_key, expires_at)) PARTITION BY RANGE (expires_at)");
        statement.execute("CREATE TABLE request_result_default PARTITION OF request_result DEFAULT");
        System.out.println("- with expires_at added to the key, the filter's claim: "
                + outcome(() -> update(statement.getConnection(), POSTGRESQL.claimStatement(), claimValues("s", "k"))));
        // A retry a second after the first claim: its expires_at (now() + retention) is a second later.
        for (String expiry : List.of("now() + interval '1 day'", "now() + interval '1 day 1 second'")) {
            statement.execute("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                    + " expires_at) VALUES ('s', 'o', 'k', 'r', now(), " + expiry + ") ON CONFLICT DO NOTHING");
        }
        System.out.println("- with expires_at added to the key, two claims of one key a second apart (ON CONFLICT"
                + " DO NOTHING): "
                + single(statement, "SELECT count(*) FROM request_result WHERE scope = 's'" + " AND request_key = 'k'")
                + " records for the one key");
        System.out.println();
    }

    /** The filter's request-path statements, unchanged, on a hash-partitioned table of a few records. */
    private static void checkStatementsOnHashPartitions(EmbeddedPostgres postgres, Statement statement, int partitions)
            throws SQLException {
        create(statement, HASHED_CHECK, partitions);
        statement.execute(ADD_KEY);
        statement.execute(ADD_EXPIRY_INDEX);
        // The filter's DDL beside it: it skips request_result, which exists, and makes the filter's other tables.
        statement.execute(resource("META-INF/idempotency/postgresql.sql"));
        statement.execute(RetentionBenchmark.fillStatement(0, CHECK_ROWS - 1));
        Connection connection = statement.getConnection();
        Values fresh = claimValues("filler-7", "fresh");
        System.out.println("The filter's statements, unchanged, on " + partitions + " hash partitions:");
        DataSource checkSchema =
                postgres.getDatabase("postgres", "postgres", Map.of("options", "-c search_path=" + HASHED_CHECK));
        System.out.println("- the start-up check of the tables (schema = validate): "
                + outcome(() -> new FilterSchema(checkSchema, POSTGRESQL, HASHED_CHECK).validate()));
        System.out.println("- claim of a new key: " + update(connection, POSTGRESQL.claimStatement(), fresh) + " row");
        System.out.println(
                "- the same claim again: " + update(connection, POSTGRESQL.claimStatement(), fresh) + " rows (taken)");
        System.out.println("- claim without waiting, another new key: "
                + update(connection, POSTGRESQL.claimWithoutWaitingStatement(), claimValues("filler-8", "fresh"))
                + " row");
        try (PreparedStatement select =
                        POSTGRESQL.selectRequestResultStatement().prepare(connection, fresh);
                ResultSet found = select.executeQuery()) {
            System.out.println("- lookup by primary key: " + (found.next() ? "found" : "NOT FOUND"));
        }
        Values completion = claimValues("filler-7", "fresh")
                .number("status", 200)
                .text("headers", "{}")
                .bytes("body", new byte[0]);
        System.out.println("- completion: " + update(connection, POSTGRESQL.completeStatement(), completion) + " row");
        System.out.println("- deletion of a scope: "
                + update(
                        connection,
                        POSTGRESQL.deleteScopeStatement(),
                        Values.of().text("scope", "filler-7"))
                + " rows (its " + CHECK_ROWS / 1000 + " records and the claim)");
        System.out.println();
    }

    /**
     * One batch of each purge statement, on freshly filled small tables, against the records that had not
     * expired: the ctid statement on the whole partitioned table picks ctids from every partition and deletes each
     * ctid in every partition; the filter's purge runs it on each partition by name, a batch each here.
     */
    private static void checkPurges(DataSource database, int batch) throws SQLException {
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement()) {
            create(statement, PLAIN_CHECK, 0);
            statement.execute(ADD_KEY);
            statement.execute(ADD_EXPIRY_INDEX);
            System.out.printf(
                    "One purge batch of %,d on %,d records, half of them expired (refilled before each):%n%n",
                    batch, CHECK_ROWS);
            System.out.println("| table | purge statement | records deleted | not-expired records deleted |");
            System.out.println("|---|---|---:|---:|");
            SqlStatement wholeTable = POSTGRESQL.purgeExpiredRequestsStatement();
            checkPurge(connection, PLAIN_CHECK, "the filter's (ctid)", filtersPurges(database, PLAIN_CHECK), batch);
            checkPurge(connection, HASHED_CHECK, "the ctid statement on the whole table", List.of(wholeTable), batch);
            checkPurge(
                    connection,
                    HASHED_CHECK,
                    "the filter's (ctid), a batch on each partition",
                    filtersPurges(database, HASHED_CHECK),
                    batch);
            checkPurge(connection, PLAIN_CHECK, "(tableoid, ctid)", List.of(PURGE_BY_PARTITION_AND_CTID), batch);
            checkPurge(connection, HASHED_CHECK, "(tableoid, ctid)", List.of(PURGE_BY_PARTITION_AND_CTID), batch);
            checkPurge(connection, HASHED_CHECK, "primary key", List.of(PURGE_BY_KEY), batch);
        }
    }

    /** One batch of each of {@code purges}, in turn, on the refilled table. */
    private static void checkPurge(
            Connection connection, String schema, String label, List<SqlStatement> purges, int batch)
            throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET search_path = " + schema);
            statement.execute("TRUNCATE request_result");
            statement.execute(RetentionBenchmark.fillStatement(0, CHECK_ROWS - 1));
            statement.execute("VACUUM ANALYZE request_result");
            long live = single(statement, "SELECT count(*) FROM request_result WHERE expires_at >= now()");
            int deleted = 0;
            for (SqlStatement purge : purges) {
                deleted += update(connection, purge, Values.of().number("batchSize", batch));
            }
            long liveDeleted =
                    live - single(statement, "SELECT count(*) FROM request_result WHERE expires_at >= now()");
            System.out.printf("| %s | %s | %,d | %,d |%n", schema, label, deleted, liveDeleted);
        }
    }

    /** The table with the filter's columns and options, without its two indexes: plain, or hashed by scope. */
    private static void create(Statement statement, String schema, int partitions) throws SQLException {
        statement.execute("CREATE SCHEMA " + schema);
        statement.execute("SET search_path = " + schema);
        if (partitions == 0) {
            statement.execute(resource("META-INF/idempotency/postgresql.sql"));
            statement.execute("ALTER TABLE request_result DROP CONSTRAINT request_result_pkey");
            statement.execute("DROP INDEX request_result_expires_at");
            return;
        }
        statement.execute(COLUMNS + ") PARTITION BY HASH (scope)");
        for (int i = 0; i < partitions; i++) {
            // A partitioned table has no storage of its own, so the fill factor is each partition's.
            statement.execute("CREATE TABLE request_result_p" + i + " PARTITION OF request_result"
                    + " FOR VALUES WITH (MODULUS " + partitions + ", REMAINDER " + i + ") WITH (fillfactor = 70)");
        }
    }

    private static void fill(Statement statement, String schema, long rows) throws SQLException {
        statement.execute("SET search_path = " + schema);
        long started = System.nanoTime();
        for (long from = 0; from < rows; from += FILL_STEP) {
            statement.execute(RetentionBenchmark.fillStatement(from, Math.min(rows, from + FILL_STEP) - 1));
        }
        long inserted = System.nanoTime();
        statement.execute("SET maintenance_work_mem = '1GB'");
        statement.execute(ADD_KEY);
        statement.execute(ADD_EXPIRY_INDEX);
        statement.execute("RESET maintenance_work_mem");
        long indexed = System.nanoTime();
        statement.execute("VACUUM ANALYZE request_result");
        System.out.printf(
                "- %s: inserted in %.0f s, indexes built in %.0f s, vacuumed in %.0f s%n",
                schema, (inserted - started) / 1e9, (indexed - inserted) / 1e9, (System.nanoTime() - indexed) / 1e9);
    }

    /** The records, and how many of them have expired. */
    private static long[] counts(Statement statement, String schema) throws SQLException {
        statement.execute("SET search_path = " + schema);
        try (ResultSet row = statement.executeQuery(
                "SELECT count(*), count(*) FILTER (WHERE expires_at < now()) FROM request_result")) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }

    private static void printSize(Statement statement, String schema, long[] counts) throws SQLException {
        statement.execute("SET search_path = " + schema);
        // pg_partition_tree lists nothing for a table that is not partitioned, which is its own only leaf.
        try (ResultSet row = statement.executeQuery("SELECT sum(pg_table_size(oid)), sum(pg_indexes_size(oid)),"
                + " sum(pg_total_relation_size(oid)), min(reltuples), max(reltuples), count(*) FROM pg_class"
                + " WHERE oid IN (SELECT relid FROM pg_partition_tree('request_result') WHERE isleaf)"
                + " OR oid = 'request_result'::regclass AND relkind = 'r'")) {
            row.next();
            long total = row.getLong(3);
            System.out.printf(
                    "| %s | %,d | %,d | %,.0f | %,.0f | %,.0f | %.0f | %s |%n",
                    schema,
                    counts[0],
                    counts[1],
                    row.getLong(1) / 1048576.0,
                    row.getLong(2) / 1048576.0,
                    total / 1048576.0,
                    (double) total / counts[0],
                    row.getInt(6) == 1
                            ? "not partitioned"
                            : String.format("%,.0f–%,.0f in %d", row.getDouble(4), row.getDouble(5), row.getInt(6)));
        }
    }

    /**
     * The request path at full size: a claim of a new key, a claim of a key that exists (it inserts nothing)
     * and a lookup of that key by primary key, each timed alone, then the commit; the two tables take turns.
     */
    private static void requestPath(DataSource database, long rows, int claims) throws SQLException {
        Map<String, List<List<Long>>> latencies = new LinkedHashMap<>();
        List<Connection> connections = new ArrayList<>();
        try {
            for (String schema : List.of(PLAIN, HASHED)) {
                Connection connection = database.getConnection();
                connections.add(connection);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET search_path = " + schema);
                }
                connection.setAutoCommit(false);
                latencies.put(
                        schema, List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>()));
            }
            Random random = new Random(23);
            for (int i = 0; i < WARMUP_CLAIMS + claims; i++) {
                long existing = (long) (random.nextDouble() * rows);
                String scope = "filler-" + random.nextInt(1000);
                int table = 0;
                for (List<List<Long>> times : latencies.values()) {
                    long[] took = claimAndLookUp(connections.get(table++), scope, "new-" + i, existing);
                    if (i >= WARMUP_CLAIMS) {
                        for (int step = 0; step < took.length; step++) {
                            times.get(step).add(took[step]);
                        }
                    }
                }
            }
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
        System.out.printf(
                "%nThe request path on %,d records: %,d claims a table, after %d of warm-up, the tables in turn;"
                        + " each claim, duplicate claim and lookup timed alone, then the commit (µs):%n%n",
                rows, claims, WARMUP_CLAIMS);
        System.out.println("| table | claim p50 | claim p99 | duplicate claim p50 | duplicate claim p99 |"
                + " lookup p50 | lookup p99 | commit p50 | commit p99 |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Map.Entry<String, List<List<Long>>> table : latencies.entrySet()) {
            StringBuilder line = new StringBuilder("| " + table.getKey() + " |");
            for (List<Long> times : table.getValue()) {
                Collections.sort(times);
                line.append(String.format(" %,d | %,d |", at(times, 50) / 1000, at(times, 99) / 1000));
            }
            System.out.println(line);
        }
    }

    /** One transaction of the request path, with the filter's statements; the nanoseconds of each step. */
    private static long[] claimAndLookUp(Connection connection, String scope, String key, long existing)
            throws SQLException {
        Values existingKey = claimValues("filler-" + existing % 1000, "k-" + existing);
        long started = System.nanoTime();
        int claimed = update(connection, POSTGRESQL.claimStatement(), claimValues(scope, key));
        long afterClaim = System.nanoTime();
        int duplicated = update(connection, POSTGRESQL.claimStatement(), existingKey);
        long afterDuplicate = System.nanoTime();
        boolean found;
        try (PreparedStatement select =
                        POSTGRESQL.selectRequestResultStatement().prepare(connection, existingKey);
                ResultSet row = select.executeQuery()) {
            found = row.next();
        }
        long afterLookup = System.nanoTime();
        connection.commit();
        long committed = System.nanoTime();
        if (claimed != 1 || duplicated != 0 || !found) {
            throw new IllegalStateException("claimed " + claimed + ", duplicated " + duplicated + ", found " + found);
        }
        return new long[] {
            afterClaim - started, afterDuplicate - afterClaim, afterLookup - afterDuplicate, committed - afterLookup
        };
    }

    /**
     * Each purge on its own connection, one transaction a batch, the purges taking turns in slices. Two purges
     * share each table's expired records. On the partitioned table, the whole-table statement drains the
     * partitions in their order (its Append scans them so) and the one by partition drains them from the last, so
     * that neither scans past the rows the other deleted until they meet.
     */
    private static void purges(DataSource database, int batch, long budgetNanos) throws SQLException {
        List<Purge> purges = new ArrayList<>();
        try {
            purges.add(new Purge(
                    database, PLAIN, "the filter's (ctid)", filtersPurges(database, PLAIN), batch, budgetNanos));
            purges.add(new Purge(
                    database, PLAIN, "(tableoid, ctid)", List.of(PURGE_BY_PARTITION_AND_CTID), batch, budgetNanos));
            purges.add(new Purge(
                    database, HASHED, "(tableoid, ctid)", List.of(PURGE_BY_PARTITION_AND_CTID), batch, budgetNanos));
            List<SqlStatement> byPartition = new ArrayList<>(filtersPurges(database, HASHED));
            Collections.reverse(byPartition);
            purges.add(new Purge(
                    database, HASHED, "the filter's (ctid), partitions in turn", byPartition, batch, budgetNanos));
            // Its plan reads the whole table for every batch: one slice shows the rate.
            purges.add(new Purge(database, HASHED, "primary key", List.of(PURGE_BY_KEY), batch, SLICE_NANOS));
            System.out.println();
            System.out.println("The purge statements' plans on the full tables:");
            for (Purge purge : purges) {
                System.out.println("- " + purge.table + ", " + purge.label + ": " + purge.plan());
            }
            while (purges.stream().anyMatch(Purge::running)) {
                for (Purge purge : purges) {
                    purge.runSlice();
                }
            }
        } finally {
            for (Purge purge : purges) {
                purge.connection.close();
            }
        }
        System.out.printf(
                "%nPurges in batches of %,d, one transaction each, in slices of %d s in turn, each until %d s"
                        + " (the primary key's: one slice) or nothing left:%n%n",
                batch, SLICE_NANOS / 1_000_000_000L, budgetNanos / 1_000_000_000L);
        System.out.println("| table | purge statement | batches | records purged | seconds | records per second |"
                + " to one table's | most in one batch |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|");
        double oneTable = purges.get(0).rate();
        for (Purge purge : purges) {
            System.out.printf(
                    "| %s | %s | %,d | %,d | %.1f | %,.0f | %.2f | %,d |%n",
                    purge.table,
                    purge.label,
                    purge.batches,
                    purge.purged,
                    purge.nanos / 1e9,
                    purge.rate(),
                    purge.rate() / oneTable,
                    purge.mostInOneBatch);
        }
    }

    /**
     * The filter's purge statements for the table in {@code schema}, read as its store reads them: the one ctid
     * statement on a plain table, and one per leaf partition on a partitioned one, where a ctid names one row.
     */
    private static List<SqlStatement> filtersPurges(DataSource database, String schema) throws SQLException {
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("SET search_path = " + schema);
            return POSTGRESQL.purgeExpiredRequestsStatements(connection, 10);
        }
    }

    /**
     * One purge statement, or one for each partition taken in turn, measured: batches, rows and time. A batch
     * that deletes nothing means nothing is left (in the last partition).
     */
    private static final class Purge {
        private final String table;
        private final String label;
        private final Connection connection;
        private final List<PreparedStatement> statements = new ArrayList<>();
        private final List<SqlStatement> sql;
        private final long budgetNanos;
        private int current;
        private long batches;
        private long purged;
        private long nanos;
        private int mostInOneBatch;
        private boolean drained;

        Purge(DataSource database, String table, String label, List<SqlStatement> sql, int batch, long budgetNanos)
                throws SQLException {
            this.table = table;
            this.label = label;
            this.sql = sql;
            this.budgetNanos = budgetNanos;
            this.connection = database.getConnection();
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET search_path = " + table);
            }
            for (SqlStatement each : sql) {
                statements.add(each.prepare(connection, Values.of().number("batchSize", batch)));
            }
        }

        boolean running() {
            return !drained && nanos < budgetNanos;
        }

        void runSlice() throws SQLException {
            long sliceEnd = System.nanoTime() + SLICE_NANOS;
            while (running() && System.nanoTime() < sliceEnd) {
                long started = System.nanoTime();
                int deleted = statements.get(current).executeUpdate();
                nanos += System.nanoTime() - started;
                batches++;
                purged += deleted;
                mostInOneBatch = Math.max(mostInOneBatch, deleted);
                if (deleted == 0 && ++current == statements.size()) {
                    drained = true;
                }
            }
        }

        double rate() {
            return purged / (nanos / 1e9);
        }

        /** The plan's nodes, in order, without their conditions: enough to see a join's kind and each scan's. */
        String plan() throws SQLException {
            Set<String> nodes = new LinkedHashSet<>();
            SqlStatement explain = SqlStatement.of("EXPLAIN (COSTS OFF) " + sql.get(0));
            try (PreparedStatement statement =
                            explain.prepare(connection, Values.of().number("batchSize", 1000));
                    ResultSet lines = statement.executeQuery()) {
                boolean first = true;
                while (lines.next()) {
                    String line = lines.getString(1).strip();
                    if (first || line.startsWith("->")) {
                        String node = line.replaceFirst("^->\\s*", "");
                        int on = node.indexOf(" on ");
                        nodes.add(on < 0 ? node : node.substring(0, on));
                    }
                    first = false;
                }
            }
            return String.join(" › ", nodes);
        }
    }

    private static Values claimValues(String scope, String key) {
        return Values.of()
                .text("scope", scope)
                .text("operation", "debit:v1")
                .text("requestKey", key)
                .text("request", "{\"body\":{\"json\":{\"amount\":1}},\"method\":\"POST\"}")
                .number("retentionSeconds", 86_400);
    }

    private static int update(Connection connection, SqlStatement sql, Values values) throws SQLException {
        try (PreparedStatement statement = sql.prepare(connection, values)) {
            return statement.executeUpdate();
        }
    }

    /** Work on the database that may be refused. */
    private interface DatabaseWork {
        void run() throws SQLException;
    }

    /** "accepted", or the SQLState and message PostgreSQL (or the filter) refused the work with. */
    private static String outcome(DatabaseWork work) {
        try {
            work.run();
            return "accepted";
        } catch (SQLException e) {
            return "refused, " + e.getSQLState() + " "
                    + e.getMessage().lines().findFirst().orElse("");
        } catch (IdempotencyException e) {
            return "refused: " + e.getMessage();
        }
    }

    private static long single(Statement statement, String sql) throws SQLException {
        try (ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static String show(Statement statement, String setting) throws SQLException {
        try (ResultSet row = statement.executeQuery("SHOW " + setting)) {
            row.next();
            return row.getString(1);
        }
    }

    private static String durability(Statement statement) throws SQLException {
        List<String> settings = new ArrayList<>();
        for (String name : List.of("fsync", "synchronous_commit", "full_page_writes", "wal_sync_method")) {
            settings.add(name + "=" + show(statement, name));
        }
        return String.join(", ", settings);
    }

    private static long at(List<Long> sorted, int percentile) {
        return sorted.get(Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }

    private static String resource(String name) {
        try (InputStream in = PartitionBenchmark.class.getClassLoader().getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(name, e);
        }
    }
}
