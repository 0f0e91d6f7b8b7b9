package dev.idempotency.sample.bench;

import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * What requests in flight hold in the server's memory: 64 concurrent requests, each with a 1 MiB JSON body
 * and a 1 MiB response, held inside the application for a few seconds, once through the filter (keyed, at
 * {@code max-request-body} = {@code max-response-body} = 1 MiB) and once not covered. While they are held,
 * the server collects garbage and reports its live heap and resident set; the difference from idle,
 * divided by the requests actually held, is the memory per request in flight.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests -Dbench.main=MemoryBenchmark}.
 */
public final class MemoryBenchmark {
    private static final int MIB = 1024 * 1024;
    private static final int CONCURRENT = 64;
    private static final String COVERED_SETTINGS = "operations = POST /bench-echo = echo:v1\n"
            + "scope-header = X-Caller\nmax-request-body = " + MIB + "\nmax-response-body = " + MIB + "\n";
    private static final String BARE_SETTINGS = "operations = POST /api/accounts = open-account:v1\n";
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private MemoryBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path sampleWar = Path.of(System.getProperty("sample.war"));
        PostgresExtension.startForBenchmark(true);
        Path covered =
                LoadBenchmark.benchmarkWar(sampleWar, "echo-covered.war", COVERED_SETTINGS, HoldingEchoServlet.class);
        Path bare = LoadBenchmark.benchmarkWar(sampleWar, "echo-bare.war", BARE_SETTINGS, HoldingEchoServlet.class);
        try (LocalServer server = LocalServer.start(
                Path.of(System.getProperty("jboss.home")),
                "bench-memory",
                Map.of("echo-covered.war", covered, "echo-bare.war", bare))) {
            String body = jsonOfExactly(MIB);
            for (int round = 0; round < 3; round++) {
                holdAtOnce("echo-bare", body, 0);
                holdAtOnce("echo-covered", body, 0);
            }
            System.out.println("| requests | in flight (held in the application) | live heap, idle → held (MiB) |"
                    + " per request held | resident set, idle → held (MiB) | per request held |");
            System.out.println("|---|---:|---:|---:|---:|---:|");
            for (String context : List.of("echo-bare", "echo-covered")) {
                long[] idle = memory(context, 0);
                for (CompletableFuture<HttpResponse<String>> request : holdAtOnce(context, body, 8000)) {
                    int status = request.get().statusCode();
                    if (status != 200) {
                        throw new IllegalStateException(context + " answered " + status);
                    }
                }
                long[] during = memory(context, 1);
                long holding = during[2];
                System.out.printf(
                        "| %s | %d of %d | %.1f → %.1f | %.2f MiB | %.1f → %.1f | %.2f MiB |%n",
                        context.equals("echo-covered") ? "covered, keyed" : "not covered",
                        holding,
                        CONCURRENT,
                        idle[0] / (double) MIB,
                        during[0] / (double) MIB,
                        (during[0] - idle[0]) / (double) holding / MIB,
                        idle[1] / (double) MIB,
                        during[1] / (double) MIB,
                        (during[1] - idle[1]) / (double) holding / MIB);
            }
        }
    }

    /** Sends the requests without waiting for them; each is held in the application for {@code holdMillis}. */
    private static List<CompletableFuture<HttpResponse<String>>> holdAtOnce(
            String context, String body, long holdMillis) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> requests = new ArrayList<>();
        for (int i = 0; i < CONCURRENT; i++) {
            requests.add(CLIENT.sendAsync(
                    HttpRequest.newBuilder(URI.create("http://localhost:8080/" + context + "/bench-echo"))
                            .timeout(Duration.ofSeconds(120))
                            .header("Content-Type", "application/json")
                            .header("Idempotency-Key", UUID.randomUUID().toString())
                            .header("X-Caller", "bench")
                            .header("X-Response-Bytes", Integer.toString(MIB))
                            .header("X-Hold-Millis", Long.toString(holdMillis))
                            .header("X-Sample-After-Millis", Long.toString(holdMillis / 2))
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        if (holdMillis == 0) { // a warm-up round
            for (CompletableFuture<HttpResponse<String>> request : requests) {
                request.get();
            }
        }
        return requests;
    }

    /**
     * {live heap, resident set, requests held} in the server, after it collected garbage: now ({@code line}
     * 0), or as sampled while the last requests were held (line 1).
     */
    private static long[] memory(String context, int line) throws Exception {
        HttpResponse<String> answer = CLIENT.send(
                HttpRequest.newBuilder(URI.create("http://localhost:8080/" + context + "/bench-echo"))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        String[] parts = answer.body().split("\n")[line].trim().split(" ");
        return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])};
    }

    private static String jsonOfExactly(int bytes) {
        String prefix = "{\"pad\":\"";
        String suffix = "\"}";
        return prefix + "x".repeat(bytes - prefix.length() - suffix.length()) + suffix;
    }
}
