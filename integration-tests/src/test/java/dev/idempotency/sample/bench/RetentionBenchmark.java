package dev.idempotency.sample.bench;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlStatement.Values;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * Retention at scale: {@code request_result} filled with {@code bench.rows} records (10 million by default),
 * half of them expired, then first executions at a steady rate, measured without and then with the purge
 * deleting the expired half. The purge is the filter's own statement in batches of {@code bench.batch} rows,
 * each in a transaction of its own, as every node runs it; here it runs back to back, as fast as it can,
 * which is the worst case for the requests beside it.
 *
 * <p>Open loop: requests are started on a fixed schedule ({@code bench.rate} per second) whatever the
 * answers, and latency counts from the scheduled start, so a stall shows in full. Durable PostgreSQL.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests -Dbench.main=RetentionBenchmark}.
 */
public final class RetentionBenchmark {
    private static final String SETTINGS = "operations = POST /api/accounts = open-account:v1 ;"
            + " POST /api/accounts/{id}/debits = debit:v1\npurge-interval = PT24H\n";

    private RetentionBenchmark() {}

    public static void main(String[] args) throws Exception {
        long rows = Long.getLong("bench.rows", 10_000_000L);
        int rate = Integer.getInteger("bench.rate", 50);
        int seconds = Integer.getInteger("bench.seconds", 30);
        int batch = Integer.getInteger("bench.batch", 1000);
        DataSource database = PostgresExtension.startForBenchmark(true).getPostgresDatabase();
        Path sampleWar = Path.of(System.getProperty("sample.war"));
        Path war = LoadBenchmark.benchmarkWar(sampleWar, "sample.war", SETTINGS);
        try (LocalServer server = LocalServer.start(
                Path.of(System.getProperty("jboss.home")), "bench-retention", Map.of("sample.war", war))) {
            Api api = new Api(new URL("http://localhost:8080/sample/"));
            long fillStarted = System.nanoTime();
            fill(database, rows);
            double fillSeconds = (System.nanoTime() - fillStarted) / 1e9;
            System.out.printf(
                    "filled %,d records (half expired) in %.0f s; table and indexes: %s%n",
                    rows, fillSeconds, size(database));

            long[] accounts = new long[rate];
            for (int i = 0; i < accounts.length; i++) {
                accounts[i] = api.openAccount("alice", Long.MAX_VALUE / 4);
            }
            steady(api, accounts, rate, 5, null); // warm-up
            List<Long> quiet = steady(api, accounts, rate, seconds, null);
            AtomicLong purged = new AtomicLong();
            long purgeStarted = System.nanoTime();
            List<Long> purging = steady(api, accounts, rate, seconds, () -> purgeBatch(database, batch, purged));
            double purgeSeconds = (System.nanoTime() - purgeStarted) / 1e9;

            System.out.println();
            System.out.printf(
                    "Open loop at %d first executions per second, %d s each; purge batches of %d rows;"
                            + " durable PostgreSQL 18.6; %,d records.%n",
                    rate, seconds, batch, rows);
            System.out.println();
            System.out.println("| | p50 (ms) | p99 (ms) | max (ms) | requests |");
            System.out.println("|---|---:|---:|---:|---:|");
            print("first executions, no purge", quiet);
            print("first executions, purge running", purging);
            System.out.println();
            System.out.printf(
                    "purged %,d expired records in %.1f s: %,.0f records per second, beside the traffic%n",
                    purged.get(), purgeSeconds, purged.get() / purgeSeconds);
        }
    }

    /** Half expired a day ago, half expiring in a day, as a busy table with a 24 h retention looks. */
    private static void fill(DataSource database, long rows) throws SQLException {
        long step = 500_000;
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement()) {
            for (long from = 0; from < rows; from += step) {
                statement.execute(fillStatement(from, Math.min(rows, from + step) - 1));
            }
            statement.execute("VACUUM ANALYZE request_result");
        }
    }

    /**
     * Inserts the records numbered {@code from} to {@code to}, in 1,000 scopes: a small debit's request and
     * response, every even-numbered one expired a day ago, every odd-numbered one expiring in a day.
     * {@link PartitionBenchmark} fills its tables with the same records.
     */
    static String fillStatement(long from, long to) {
        return "INSERT INTO request_result (scope, operation, request_key, request,"
                + " response_status, response_headers, response_body, created_at, expires_at)"
                + " SELECT 'filler-' || (i % 1000), 'debit:v1', 'k-' || i,"
                + " '{\"body\":{\"json\":{\"amount\":1}},\"method\":\"POST\",\"operation\":\"debit:v1\","
                + "\"path\":\"/api/accounts/1/debits\",\"query\":[]}',"
                + " 200, '{\"Content-Type\":[\"application/json\"]}', convert_to('{\"balance\":900}', 'UTF8'),"
                + " now() - interval '2 days', now() + CASE WHEN i % 2 = 0 THEN interval '-1 day'"
                + " ELSE interval '1 day' END"
                + " FROM generate_series(" + from + ", " + to + ") AS i";
    }

    private static void purgeBatch(DataSource database, int batch, AtomicLong purged) {
        try (Connection connection = database.getConnection();
                PreparedStatement purge = Engine.dialectNamed("postgresql")
                        .purgeExpiredRequestsStatement()
                        .prepare(connection, Values.of().number("batchSize", batch))) {
            purged.addAndGet(purge.executeUpdate());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts {@code rate} first executions per second for {@code seconds}, on a schedule, and returns their
     * latencies in microseconds from their scheduled start; {@code background}, if given, runs back to back
     * meanwhile.
     */
    private static List<Long> steady(Api api, long[] accounts, int rate, int seconds, Runnable background)
            throws Exception {
        ExecutorService senders = Executors.newFixedThreadPool(Math.max(8, rate));
        AtomicBoolean running = new AtomicBoolean(true);
        CompletableFuture<Void> work = background == null
                ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(() -> {
                    while (running.get()) {
                        background.run();
                    }
                });
        List<CompletableFuture<Long>> requests = new ArrayList<>();
        long start = System.nanoTime();
        long interval = 1_000_000_000L / rate;
        for (int i = 0; i < rate * seconds; i++) {
            long scheduled = start + i * interval;
            long wait = scheduled - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            long account = accounts[i % accounts.length];
            requests.add(CompletableFuture.supplyAsync(
                    () -> {
                        HttpResponse<String> response = api.post(
                                "alice",
                                "api/accounts/" + account + "/debits",
                                UUID.randomUUID().toString(),
                                "{\"amount\": 1}");
                        if (response.statusCode() != 200) {
                            throw new IllegalStateException(response.statusCode() + " " + response.body());
                        }
                        return (System.nanoTime() - scheduled) / 1_000;
                    },
                    senders));
        }
        List<Long> latencies = new ArrayList<>();
        for (CompletableFuture<Long> request : requests) {
            latencies.add(request.get());
        }
        running.set(false);
        work.get();
        senders.shutdown();
        Collections.sort(latencies);
        return latencies;
    }

    private static void print(String label, List<Long> sorted) {
        System.out.printf(
                "| %s | %.1f | %.1f | %.1f | %d |%n",
                label,
                at(sorted, 50) / 1000.0,
                at(sorted, 99) / 1000.0,
                sorted.get(sorted.size() - 1) / 1000.0,
                sorted.size());
    }

    private static long at(List<Long> sorted, int percentile) {
        return sorted.get(Math.max(0, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1));
    }

    private static String size(DataSource database) throws SQLException {
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row =
                        statement.executeQuery("SELECT pg_size_pretty(pg_total_relation_size('request_result'))")) {
            row.next();
            return row.getString(1);
        }
    }
}
