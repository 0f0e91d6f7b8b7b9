package dev.idempotency.sample.bench;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.LocalServer;
import java.io.File;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The price of idempotency, measured in one run on a real WildFly and PostgreSQL 18.6 that this program
 * starts. For 1, 4 and 16 concurrent clients it drives the sample's debit endpoint (a) not covered by the
 * filter, (b) covered with a fresh key per request, (c) covered, replaying stored keys, and prints
 * throughput, p50/p99 latency and the ratios b/a and c/a.
 *
 * <p>Method: closed loop, warmed, fixed duration. Each client sends its next request as soon as the last
 * answered, on its own account (so clients never wait on each other's row locks); the first {@code
 * warmup} seconds of every scenario are discarded, after a global warm-up that runs every scenario twice.
 * Client and server share the machine.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests}; {@code -Dbench.seconds} and {@code -Dbench.warmup}
 * change the durations, {@code -Dbench.clients=1,4,16} the concurrency levels.
 */
public final class LoadBenchmark {
    private static final String BARE_SETTINGS = "operations = POST /api/accounts = open-account:v1\n";

    private record Result(String scenario, int clients, long requests, double seconds, long p50Micros, long p99Micros) {
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
        int[] clientCounts = Arrays.stream(
                        System.getProperty("bench.clients", "1,4,16").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();

        Path bareWar = sampleWar.resolveSibling("bare.war");
        ShrinkWrap.create(ZipImporter.class, "bare.war")
                .importFrom(sampleWar.toFile())
                .as(WebArchive.class)
                .addAsWebInfResource(new StringAsset(BARE_SETTINGS), "idempotency.properties")
                .as(ZipExporter.class)
                .exportTo(new File(bareWar.toString()), true);

        try (LocalServer server =
                LocalServer.start(jbossHome, "bench-server", Map.of("sample.war", sampleWar, "bare.war", bareWar))) {
            Api covered = new Api(new URL("http://localhost:8080/sample/"));
            Api bare = new Api(new URL("http://localhost:8080/bare/"));
            // Every scenario runs twice before anything is measured, so the server's JIT has compiled every
            // path and the first scenario measured is not penalized for going first.
            int mostClients = Arrays.stream(clientCounts).max().orElse(1);
            for (int round = 0; round < 2; round++) {
                runScenarios(covered, bare, mostClients, warmup, 0);
            }
            List<Result> results = new ArrayList<>();
            for (int clients : clientCounts) {
                results.addAll(runScenarios(covered, bare, clients, seconds, warmup));
            }
            print(results, seconds, warmup);
        }
    }

    /** Scenarios a, b and c at one concurrency, each client on an account of its own. */
    private static List<Result> runScenarios(Api covered, Api bare, int clients, int seconds, int warmup)
            throws Exception {
        long[] accounts = new long[clients];
        String[] storedKeys = new String[clients];
        for (int i = 0; i < clients; i++) {
            accounts[i] = covered.openAccount("alice", Long.MAX_VALUE / 4);
            storedKeys[i] = UUID.randomUUID().toString();
            debit(covered, accounts[i], storedKeys[i]);
        }
        return List.of(
                run("a: not covered", clients, seconds, warmup, i -> debit(bare, accounts[i], null)),
                run("b: first execution", clients, seconds, warmup, i -> debit(covered, accounts[i], newKey())),
                run("c: replay", clients, seconds, warmup, i -> debit(covered, accounts[i], storedKeys[i])));
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private static HttpResponse<String> debit(Api api, long account, String key) {
        HttpResponse<String> response =
                api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": 1}");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("debit failed: " + response.statusCode() + " " + response.body());
        }
        return response;
    }

    private static Result run(String scenario, int clients, int seconds, int warmup, IntFunction<?> request)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(clients);
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
        all.sort(null);
        Result result = new Result(scenario, clients, all.size(), seconds, percentile(all, 50), percentile(all, 99));
        System.out.printf(
                "%-20s clients=%2d  %8.1f req/s  p50=%6d us  p99=%6d us%n",
                scenario, clients, result.throughput(), result.p50Micros(), result.p99Micros());
        return result;
    }

    private static long percentile(List<Long> sorted, int percentile) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1_000;
    }

    private static void print(List<Result> results, int seconds, int warmup) {
        System.out.println();
        System.out.println("Closed loop, global warm-up, then " + warmup + " s warm-up and " + seconds
                + " s measured per scenario;"
                + " client and server on the same machine ("
                + Runtime.getRuntime().availableProcessors()
                + " cores).");
        System.out.println();
        System.out.println("| clients | scenario | req/s | p50 (ms) | p99 (ms) | ratio to a |");
        System.out.println("|---:|---|---:|---:|---:|---:|");
        for (Result result : results) {
            double baseline = results.stream()
                    .filter(r -> r.clients() == result.clients() && r.scenario().startsWith("a"))
                    .findFirst()
                    .orElseThrow()
                    .throughput();
            System.out.printf(
                    "| %d | %s | %.0f | %.2f | %.2f | %.2f |%n",
                    result.clients(),
                    result.scenario(),
                    result.throughput(),
                    result.p50Micros() / 1000.0,
                    result.p99Micros() / 1000.0,
                    result.throughput() / baseline);
        }
    }
}
