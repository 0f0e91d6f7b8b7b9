package dev.idempotency.sample.bench;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URL;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;
import javax.sql.DataSource;

/**
 * The price of idempotency where it is really deployed: the same three scenarios of {@link LoadBenchmark} (a:
 * the debit not covered, b: a first execution, c: a replay), and the same request to an endpoint that touches no
 * database (the ceiling any endpoint, a replay included, can reach on this machine), first with PostgreSQL on loopback, then one network
 * hop away behind a {@link DelayingProxy} that adds {@code bench.hop} microseconds (500 by default) to every round
 * trip, in one run. The delay is read back: the median of 1,000 {@code SELECT 1} round trips through the proxy
 * minus the same straight to the database. So are the round trips each request costs, counted by the proxy.
 * Durable PostgreSQL, read back and printed. Every scenario's cost per request ({@link CostMeter}: CPU of the
 * server, of the database and of this JVM, statements, round trips, WAL) is printed for each network.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests -Dbench.main=HopBenchmark}; {@code -Dbench.hop}, {@code
 * -Dbench.seconds}, {@code -Dbench.warmup} and {@code -Dbench.clients} as for the load benchmark.
 */
public final class HopBenchmark {
    private static final int PINGS = 1_000;
    private static final int COUNTED_REQUESTS = 200;

    record Network(
            String name,
            double addedRoundTripMillis,
            Map<String, Double> roundTrips,
            List<LoadBenchmark.Result> results) {}

    private HopBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path sampleWar = Path.of(System.getProperty("sample.war"));
        int seconds = Integer.getInteger("bench.seconds", 10);
        int warmup = Integer.getInteger("bench.warmup", 3);
        long hopMicros = Long.getLong("bench.hop", 500);
        int[] clientCounts = Arrays.stream(
                        System.getProperty("bench.clients", "1,4,16").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();

        EmbeddedPostgres postgres = PostgresExtension.startForBenchmark(true);
        DataSource database = postgres.getPostgresDatabase();
        Map<String, String> durability = LoadBenchmark.readSettings(database);
        Path coveredWar = LoadBenchmark.benchmarkWar(sampleWar, "sample.war", LoadBenchmark.COVERED_SETTINGS);
        Path bareWar =
                LoadBenchmark.benchmarkWar(sampleWar, "bare.war", LoadBenchmark.BARE_SETTINGS, BenchResource.class);
        Map<String, Path> wars = Map.of("sample.war", coveredWar, "bare.war", bareWar);

        List<Network> networks = new ArrayList<>();
        try (LocalServer server = LocalServer.start(jbossHome, "hop-bench-loopback", wars);
                CostMeter meter = new CostMeter(server.pid(), postgres, Map.of())) {
            networks.add(new Network("loopback", 0, Map.of(), measure(meter, clientCounts, seconds, warmup)));
        }
        try (DelayingProxy proxy = new DelayingProxy(postgres.getPort(), hopMicros)) {
            double added = medianRoundTripMillis(proxy.port()) - medianRoundTripMillis(postgres.getPort());
            try (LocalServer server = LocalServer.start(
                            jbossHome, "hop-bench-hop", wars, 0, Map.of("pg.port", Integer.toString(proxy.port())));
                    CostMeter meter = new CostMeter(server.pid(), postgres, Map.of())) {
                List<LoadBenchmark.Result> results = measure(meter, clientCounts, seconds, warmup);
                networks.add(new Network("hop", added, roundTrips(proxy), results));
            }
        }
        print(networks, hopMicros, seconds, warmup, durability);
    }

    /** a, b and c at every concurrency, after a warm-up round at the highest. */
    private static List<LoadBenchmark.Result> measure(CostMeter meter, int[] clientCounts, int seconds, int warmup)
            throws Exception {
        Api covered = new Api(new URL("http://localhost:8080/sample/"));
        Api bare = new Api(new URL("http://localhost:8080/bare/"));
        int mostClients = Arrays.stream(clientCounts).max().orElse(1);
        for (int round = 0; round < 2; round++) {
            scenarios(covered, bare, meter, mostClients, warmup, 0);
        }
        List<LoadBenchmark.Result> results = new ArrayList<>();
        for (int clients : clientCounts) {
            results.addAll(scenarios(covered, bare, meter, clients, seconds, warmup));
        }
        return results;
    }

    private static List<LoadBenchmark.Result> scenarios(
            Api covered, Api bare, CostMeter meter, int clients, int seconds, int warmup) throws Exception {
        long[] accounts = new long[clients];
        String[] storedKeys = new String[clients];
        for (int i = 0; i < clients; i++) {
            accounts[i] = covered.openAccount("alice", Long.MAX_VALUE / 4);
            storedKeys[i] = UUID.randomUUID().toString();
            LoadBenchmark.debit(covered, accounts[i], storedKeys[i]);
        }
        return List.of(
                LoadBenchmark.run(
                        "a: not covered",
                        clients,
                        seconds,
                        warmup,
                        meter,
                        i -> LoadBenchmark.debit(bare, accounts[i], null)),
                LoadBenchmark.run(
                        "b: first execution",
                        clients,
                        seconds,
                        warmup,
                        meter,
                        i -> LoadBenchmark.debit(covered, accounts[i], LoadBenchmark.newKey())),
                LoadBenchmark.run(
                        "c: replay",
                        clients,
                        seconds,
                        warmup,
                        meter,
                        i -> LoadBenchmark.debit(covered, accounts[i], storedKeys[i])),
                LoadBenchmark.run("0: no database", clients, seconds, warmup, meter, i -> nothing(bare, accounts[i])));
    }

    private static Object nothing(Api bare, long account) {
        return LoadBenchmark.expectOk(
                bare.post("alice", "api/bench/accounts/" + account + "/nothing", null, "{\"amount\": 1}"));
    }

    /** Round trips to the database per request of each scenario, one client at a time, counted by the proxy. */
    private static Map<String, Double> roundTrips(DelayingProxy proxy) throws Exception {
        Api covered = new Api(new URL("http://localhost:8080/sample/"));
        Api bare = new Api(new URL("http://localhost:8080/bare/"));
        long account = covered.openAccount("alice", Long.MAX_VALUE / 4);
        String stored = LoadBenchmark.newKey();
        LoadBenchmark.debit(covered, account, stored);
        Map<String, Double> perRequest = new LinkedHashMap<>();
        perRequest.put("a", counted(proxy, i -> LoadBenchmark.debit(bare, account, null)));
        perRequest.put("b", counted(proxy, i -> LoadBenchmark.debit(covered, account, LoadBenchmark.newKey())));
        perRequest.put("c", counted(proxy, i -> LoadBenchmark.debit(covered, account, stored)));
        return perRequest;
    }

    private static double counted(DelayingProxy proxy, IntFunction<?> request) {
        long before = proxy.chunksToTarget();
        for (int i = 0; i < COUNTED_REQUESTS; i++) {
            request.apply(i);
        }
        return (proxy.chunksToTarget() - before) / (double) COUNTED_REQUESTS;
    }

    /** The median time of {@value #PINGS} {@code SELECT 1} round trips to a PostgreSQL on {@code port}. */
    private static double medianRoundTripMillis(int port) throws Exception {
        long[] times = new long[PINGS];
        try (Connection connection = DriverManager.getConnection(
                        "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "postgres");
                Statement statement = connection.createStatement()) {
            for (int i = -100; i < PINGS; i++) {
                long start = System.nanoTime();
                statement.execute("SELECT 1");
                if (i >= 0) {
                    times[i] = System.nanoTime() - start;
                }
            }
        }
        Arrays.sort(times);
        return times[PINGS / 2] / 1e6;
    }

    private static void print(
            List<Network> networks, long hopMicros, int seconds, int warmup, Map<String, String> durability) {
        System.out.println();
        System.out.println("Closed loop, global warm-up, then " + warmup + " s warm-up and " + seconds
                + " s measured per scenario; client, WildFly and PostgreSQL 18.6 on one machine ("
                + Runtime.getRuntime().availableProcessors() + " cores). Durability read back: " + durability + ".");
        Network hop = networks.get(1);
        System.out.printf(
                "The hop: %d us configured per round trip; measured %.3f ms added (median SELECT 1 through the"
                        + " proxy minus straight). Round trips per request through it: %s.%n",
                hopMicros, hop.addedRoundTripMillis(), hop.roundTrips());
        System.out.println();
        System.out.println("| database | clients | a: not covered req/s | b: first execution req/s (b/a) |"
                + " c: replay req/s (c/a) | p50 a / b / c (ms) | p99 a / b / c (ms) | added per first execution"
                + " (ms, p50) | added per replay (ms, p50) | no database: req/s (to a) |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Network network : networks) {
            for (int clients : network.results().stream()
                    .map(LoadBenchmark.Result::clients)
                    .distinct()
                    .toList()) {
                LoadBenchmark.Result a = find(network, clients, "a:");
                LoadBenchmark.Result b = find(network, clients, "b:");
                LoadBenchmark.Result c = find(network, clients, "c:");
                LoadBenchmark.Result ceiling = find(network, clients, "0:");
                System.out.printf(
                        "| %s | %d | %.0f | %.0f (%.2f) | %.0f (%.2f) | %.2f / %.2f / %.2f | %.2f / %.2f / %.2f |"
                                + " %+.2f | %+.2f | %.0f (%.2f) |%n",
                        network.name(),
                        clients,
                        a.throughput(),
                        b.throughput(),
                        b.throughput() / a.throughput(),
                        c.throughput(),
                        c.throughput() / a.throughput(),
                        a.p50Micros() / 1000.0,
                        b.p50Micros() / 1000.0,
                        c.p50Micros() / 1000.0,
                        a.p99Micros() / 1000.0,
                        b.p99Micros() / 1000.0,
                        c.p99Micros() / 1000.0,
                        (b.p50Micros() - a.p50Micros()) / 1000.0,
                        (c.p50Micros() - a.p50Micros()) / 1000.0,
                        ceiling.throughput(),
                        ceiling.throughput() / a.throughput());
            }
        }
        for (Network network : networks) {
            System.out.println();
            System.out.println("Cost per request, " + network.name() + ":");
            BenchmarkReport.printCosts(network.results());
        }
    }

    private static LoadBenchmark.Result find(Network network, int clients, String prefix) {
        return network.results().stream()
                .filter(result ->
                        result.clients() == clients && result.scenario().startsWith(prefix))
                .findFirst()
                .orElseThrow();
    }
}
