package dev.idempotency.sample.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** Prints one run of {@link LoadBenchmark} as the Markdown tables that docs/benchmarks.md shows. */
final class BenchmarkReport {
    private BenchmarkReport() {}

    static void print(List<LoadBenchmark.Result> results, int seconds, int warmup, Map<String, String> durability) {
        System.out.println();
        System.out.println("Closed loop, global warm-up, then " + warmup + " s warm-up and " + seconds
                + " s measured per scenario; client, WildFly and PostgreSQL on the same machine ("
                + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version")
                + ").");
        System.out.println("PostgreSQL durability, read back from the database: " + durability);
        printScenarios(results);
        System.out.println();
        printCosts(results);
        System.out.println();
        System.out.println("| clients | b/a | c/a | b/d | covered e / bare e | database's share of b's overhead |"
                + " filter's and server's share | floor: one write / two (b1/b) |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int clients : new TreeSet<>(
                results.stream().map(LoadBenchmark.Result::clients).toList())) {
            double a = throughput(results, clients, "a:");
            double b = throughput(results, clients, "b:");
            // Closed loop: the mean time per request is clients / throughput, so the overhead per request of b
            // over a, and of the floor's b over the floor's a, compare directly.
            double overhead = clients / b - clients / a;
            double databaseOverhead = clients / throughput(results, clients, "floor b:")
                    - clients / throughput(results, clients, "floor a:");
            double databaseShare = databaseOverhead / overhead;
            System.out.printf(
                    "| %d | %.2f | %.2f | %.2f | %.2f | %.0f %% (%.3f of %.3f ms) | %.0f %% | %.2f |%n",
                    clients,
                    b / a,
                    throughput(results, clients, "c:") / a,
                    b / throughput(results, clients, "d:"),
                    throughput(results, clients, "e: payment, covered")
                            / throughput(results, clients, "e: payment, bare"),
                    100 * databaseShare,
                    databaseOverhead * 1000,
                    overhead * 1000,
                    100 * (1 - databaseShare),
                    throughput(results, clients, "floor b1:") / throughput(results, clients, "floor b:"));
        }
    }

    /** One row per scenario and concurrency, in the order measured, each set against a at the same concurrency. */
    static void printScenarios(List<LoadBenchmark.Result> results) {
        System.out.println();
        System.out.println("| clients | scenario | req/s | p50 (ms) | p99 (ms) | ratio to a |");
        System.out.println("|---:|---|---:|---:|---:|---:|");
        for (LoadBenchmark.Result result : results) {
            System.out.printf(
                    "| %d | %s | %.0f | %.2f | %.2f | %.2f |%n",
                    result.clients(),
                    result.scenario(),
                    result.throughput(),
                    result.p50Micros() / 1000.0,
                    result.p99Micros() / 1000.0,
                    result.throughput() / throughput(results, result.clients(), "a:"));
        }
    }

    /**
     * One row per scenario and concurrency: what a request cost the machine ({@link CostMeter}), over the whole
     * phase, warm-up included, divided by the requests completed in it.
     */
    static void printCosts(List<LoadBenchmark.Result> results) {
        List<String> databases =
                List.copyOf(results.get(0).cost().databaseCpuMillis().keySet());
        StringBuilder header = new StringBuilder("| clients | scenario | requests | server CPU (ms) |");
        databases.forEach(name -> header.append(' ').append(name).append(" CPU (ms) |"));
        header.append(" load generator CPU (ms) | statements | round trips | WAL (bytes) |");
        System.out.println(header);
        System.out.println("|---:|---|" + "---:|".repeat(databases.size() + 6));
        for (LoadBenchmark.Result result : results) {
            CostMeter.Cost cost = result.cost();
            StringBuilder row = new StringBuilder(String.format(
                    "| %d | %s | %d | %.3f |",
                    result.clients(), result.scenario(), cost.requests(), cost.serverCpuMillis()));
            databases.forEach(name ->
                    row.append(String.format(" %.3f |", cost.databaseCpuMillis().get(name))));
            row.append(String.format(
                    " %.3f | %.2f | %.2f | %.0f |",
                    cost.clientCpuMillis(), cost.statements(), cost.roundTrips(), cost.walBytes()));
            System.out.println(row);
        }
    }

    static double throughput(List<LoadBenchmark.Result> results, int clients, String scenarioPrefix) {
        return find(results, clients, scenarioPrefix).throughput();
    }

    /** The result of the scenario whose name starts with {@code scenarioPrefix}, at {@code clients}. */
    static LoadBenchmark.Result find(List<LoadBenchmark.Result> results, int clients, String scenarioPrefix) {
        Optional<LoadBenchmark.Result> found = results.stream()
                .filter(r -> r.clients() == clients && r.scenario().startsWith(scenarioPrefix))
                .findFirst();
        return found.orElseThrow(() -> new IllegalStateException("no " + scenarioPrefix + " at " + clients));
    }
}
