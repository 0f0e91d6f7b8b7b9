package dev.idempotency.sample.bench;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import javax.sql.DataSource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The price of idempotency, measured in one run on a real WildFly and PostgreSQL 18.6 that this program
 * starts, durable by default ({@code fsync} and {@code synchronous_commit} on, read back and printed). For
 * each number of concurrent clients it drives:
 *
 * <ul>
 *   <li>a: the sample's debit not covered by the filter (the baseline);
 *   <li>b: covered, a fresh key per request; c: covered, replaying stored keys;
 *   <li>d: the chapter's own {@code debit_once} function, called by a resource in one statement;
 *   <li>e: a payment (the debit plus a ledger row and an outbox row), bare and covered;
 *   <li>f: covered mixed traffic, nine first executions to one retry of an earlier key;
 *   <li>g and h: b and c on an operation marked {@code encrypted} (AES-256-GCM, a fixed all-zero benchmark key),
 *       in a WAR of their own: what encryption costs;
 *   <li>the floor: a's and b's statements over JDBC straight to PostgreSQL, without HTTP.
 * </ul>
 *
 * <p>Method: closed loop, warmed, fixed duration. Each client sends its next request as soon as the last
 * answered, on its own account (so clients never wait on each other's row locks); the first {@code
 * warmup} seconds of every scenario are discarded, after a global warm-up that runs every scenario twice.
 * Client and server share the machine. Each scenario's cost per request ({@link CostMeter}: CPU of the server, of
 * the database and of this JVM, statements, round trips, WAL) is measured over the whole phase and printed too.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests}; {@code -Dbench.seconds} and {@code -Dbench.warmup}
 * change the durations, {@code -Dbench.clients=1,4,16} the concurrency levels, {@code -Dbench.durable=false}
 * turns the database's durability off (and the report says so).
 */
public final class LoadBenchmark {
    static final String BARE_SETTINGS = "operations = POST /api/accounts = open-account:v1\n";
    static final String COVERED_SETTINGS = "operations = POST /api/accounts = open-account:v1 ;"
            + " POST /api/accounts/{id}/debits = debit:v1 ; POST /api/bench/accounts/{id}/payments = payment:v1\n";
    /** The same operations, the debit's stored request and response sealed (AES-256-GCM, a benchmark's key). */
    private static final String ENCRYPTED_SETTINGS = COVERED_SETTINGS.replace("debit:v1", "debit:v1 encrypted")
            + "encryption-keys = bench=" + Base64.getEncoder().encodeToString(new byte[32]) + "\n";

    private static final List<String> DURABILITY_SETTINGS =
            List.of("fsync", "synchronous_commit", "full_page_writes", "wal_sync_method");
    private static final int RETRY_EVERY = 10;

    /** One scenario at one concurrency: latency and throughput over the measured seconds, cost over the phase. */
    record Result(
            String scenario,
            int clients,
            long requests,
            double seconds,
            long p50Micros,
            long p99Micros,
            CostMeter.Cost cost) {
        double throughput() {
            return requests / seconds;
        }
    }

    private LoadBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path sampleWar = Path.of(System.getProperty("sample.war"));
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Integer.getInteger("bench.warmup", 5);
        boolean durable = Boolean.parseBoolean(System.getProperty("bench.durable", "true"));
        int[] clientCounts = Arrays.stream(
                        System.getProperty("bench.clients", "1,4,16").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();

        EmbeddedPostgres postgres = PostgresExtension.startForBenchmark(durable);
        DataSource database = postgres.getPostgresDatabase();
        Map<String, String> durability = readSettings(database);
        execute(database, resource("/bench/chapter.sql"));
        Path coveredWar = benchmarkWar(sampleWar, "sample.war", COVERED_SETTINGS, BenchResource.class);
        Path bareWar = benchmarkWar(sampleWar, "bare.war", BARE_SETTINGS, BenchResource.class);
        Path encryptedWar = benchmarkWar(sampleWar, "encrypted.war", ENCRYPTED_SETTINGS, BenchResource.class);

        try (LocalServer server = LocalServer.start(
                        jbossHome,
                        "bench-server",
                        Map.of("sample.war", coveredWar, "bare.war", bareWar, "encrypted.war", encryptedWar));
                CostMeter meter = new CostMeter(server.pid(), postgres, Map.of())) {
            Api covered = new Api(new URL("http://localhost:8080/sample/"));
            Api bare = new Api(new URL("http://localhost:8080/bare/"));
            Api encrypted = new Api(new URL("http://localhost:8080/encrypted/"));
            // Every scenario runs twice before anything is measured, so the server's JIT has compiled every
            // path and the first scenario measured is not penalized for going first.
            int mostClients = Arrays.stream(clientCounts).max().orElse(1);
            for (int round = 0; round < 2; round++) {
                runScenarios(covered, bare, encrypted, database, meter, mostClients, warmup, 0);
            }
            List<Result> results = new ArrayList<>();
            for (int clients : clientCounts) {
                results.addAll(runScenarios(covered, bare, encrypted, database, meter, clients, seconds, warmup));
            }
            BenchmarkReport.print(results, seconds, warmup, durability);
        }
    }

    /** Every scenario at one concurrency, each client on an account of its own. */
    private static List<Result> runScenarios(
            Api covered,
            Api bare,
            Api encrypted,
            DataSource database,
            CostMeter meter,
            int clients,
            int seconds,
            int warmup)
            throws Exception {
        long[] accounts = new long[clients];
        String[] storedKeys = new String[clients];
        String[] sealedKeys = new String[clients];
        List<List<String>> earlierKeys = new ArrayList<>();
        StatementFloor[] floors = new StatementFloor[clients];
        for (int i = 0; i < clients; i++) {
            accounts[i] = covered.openAccount("alice", Long.MAX_VALUE / 4);
            storedKeys[i] = UUID.randomUUID().toString();
            debit(covered, accounts[i], storedKeys[i]);
            sealedKeys[i] = UUID.randomUUID().toString();
            debit(encrypted, accounts[i], sealedKeys[i]);
            execute(database, "INSERT INTO chapter.account VALUES (" + accounts[i] + ", " + Long.MAX_VALUE / 4 + ")");
            earlierKeys.add(new ArrayList<>(List.of(storedKeys[i])));
            floors[i] = new StatementFloor(database.getConnection(), accounts[i]);
        }
        Random random = new Random(42);
        try {
            return List.of(
                    run("a: not covered", clients, seconds, warmup, meter, i -> debit(bare, accounts[i], null)),
                    run(
                            "b: first execution",
                            clients,
                            seconds,
                            warmup,
                            meter,
                            i -> debit(covered, accounts[i], newKey())),
                    run("c: replay", clients, seconds, warmup, meter, i -> debit(covered, accounts[i], storedKeys[i])),
                    run(
                            "g: first execution, encrypted",
                            clients,
                            seconds,
                            warmup,
                            meter,
                            i -> debit(encrypted, accounts[i], newKey())),
                    run(
                            "h: replay, encrypted",
                            clients,
                            seconds,
                            warmup,
                            meter,
                            i -> debit(encrypted, accounts[i], sealedKeys[i])),
                    run("d: chapter's function", clients, seconds, warmup, meter, i -> chapterDebit(bare, accounts[i])),
                    run("e: payment, bare", clients, seconds, warmup, meter, i -> pay(bare, accounts[i], null)),
                    run(
                            "e: payment, covered",
                            clients,
                            seconds,
                            warmup,
                            meter,
                            i -> pay(covered, accounts[i], newKey())),
                    run("f: mixed, 1 in 10 retried", clients, seconds, warmup, meter, i -> {
                        List<String> mine = earlierKeys.get(i);
                        int draw;
                        synchronized (random) {
                            draw = random.nextInt(RETRY_EVERY * mine.size());
                        }
                        if (draw < mine.size()) {
                            return debit(covered, accounts[i], mine.get(draw));
                        }
                        String key = newKey();
                        mine.add(key);
                        return debit(covered, accounts[i], key);
                    }),
                    run("floor a: a's SQL, no HTTP", clients, seconds, warmup, meter, i -> floors[i].bare()),
                    run("floor b: b's SQL, no HTTP", clients, seconds, warmup, meter, i -> floors[i].covered()),
                    run(
                            "floor b1: b with one write",
                            clients,
                            seconds,
                            warmup,
                            meter,
                            i -> floors[i].coveredWithOneWrite()));
        } finally {
            for (StatementFloor floor : floors) {
                floor.close();
            }
        }
    }

    /** The sample plus the given benchmark classes, under the given filter settings, written beside it. */
    static Path benchmarkWar(Path sampleWar, String name, String settings, Class<?>... classes) {
        return export(benchmarkArchive(sampleWar, name, settings).addClasses(classes), sampleWar);
    }

    /** The sample under the given filter settings, to be changed further before {@link #export}. */
    static WebArchive benchmarkArchive(Path sampleWar, String name, String settings) {
        return ShrinkWrap.create(ZipImporter.class, name)
                .importFrom(sampleWar.toFile())
                .as(WebArchive.class)
                .addAsWebInfResource(new StringAsset(settings), "idempotency.properties");
    }

    /** Writes the archive beside the sample, as {@code bench-<its name>}. */
    static Path export(WebArchive archive, Path sampleWar) {
        Path war = sampleWar.resolveSibling("bench-" + archive.getName());
        archive.as(ZipExporter.class).exportTo(new File(war.toString()), true);
        return war;
    }

    /** PostgreSQL's durability settings, as the server reports them. */
    static Map<String, String> readSettings(DataSource database) throws SQLException {
        Map<String, String> settings = new LinkedHashMap<>();
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement()) {
            for (String name : DURABILITY_SETTINGS) {
                try (ResultSet row = statement.executeQuery("SHOW " + name)) {
                    row.next();
                    settings.put(name, row.getString(1));
                }
            }
        }
        return settings;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = LoadBenchmark.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static void execute(DataSource database, String sql) throws SQLException {
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    static String newKey() {
        return UUID.randomUUID().toString();
    }

    static HttpResponse<String> debit(Api api, long account, String key) {
        return expectOk(api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": 1}"));
    }

    private static HttpResponse<String> chapterDebit(Api api, long account) {
        return expectOk(api.post("alice", "api/bench/chapter/" + account + "/debits", newKey(), "{\"amount\": 1}"));
    }

    private static HttpResponse<String> pay(Api api, long account, String key) {
        return expectOk(api.post("alice", "api/bench/accounts/" + account + "/payments", key, "{\"amount\": 1}"));
    }

    static HttpResponse<String> expectOk(HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException("request failed: " + response.statusCode() + " " + response.body());
        }
        return response;
    }

    /**
     * Runs one scenario: {@code clients} threads in a closed loop for {@code warmup} and then {@code seconds}
     * seconds, latency recorded over the latter; its cost per request from the meter, over the whole phase.
     */
    static Result run(String scenario, int clients, int seconds, int warmup, CostMeter meter, IntFunction<?> request)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        LongAdder completed = new LongAdder();
        CostMeter.Sample costAtStart = meter.start();
        long start = System.nanoTime();
        long measureFrom = start + warmup * 1_000_000_000L;
        long measureUntil = measureFrom + seconds * 1_000_000_000L;
        List<Future<long[]>> latencies = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            int client = i;
            latencies.add(pool.submit(() -> {
                long[] recorded = new long[1 << 16];
                int count = 0;
                while (true) {
                    long sent = System.nanoTime();
                    if (sent >= measureUntil) {
                        return Arrays.copyOf(recorded, count);
                    }
                    request.apply(client);
                    completed.increment();
                    long answered = System.nanoTime();
                    if (sent >= measureFrom && answered <= measureUntil) {
                        if (count == recorded.length) {
                            recorded = Arrays.copyOf(recorded, count * 2);
                        }
                        recorded[count++] = answered - sent;
                    }
                }
            }));
        }
        List<Long> all = new ArrayList<>();
        for (Future<long[]> future : latencies) {
            for (long latency : future.get()) {
                all.add(latency);
            }
        }
        pool.shutdown();
        CostMeter.Cost cost = meter.since(costAtStart, completed.sum());
        all.sort(null);
        Result result =
                new Result(scenario, clients, all.size(), seconds, percentile(all, 50), percentile(all, 99), cost);
        System.out.printf(
                "%-20s clients=%2d  %8.1f req/s  p50=%6d us  p99=%6d us  per request: %s%n",
                scenario, clients, result.throughput(), result.p50Micros(), result.p99Micros(), cost);
        return result;
    }

    private static long percentile(List<Long> sorted, int percentile) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1_000;
    }
}
