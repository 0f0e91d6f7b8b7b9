package dev.idempotency.sample.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A plain HTTP client for the sample's API, authenticating with the demo users (password = name). */
public final class Api {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    /**
     * Threads of their own for requests sent at once: the common pool has a single thread on a two-core machine,
     * where it would send "concurrent" requests one after the other.
     */
    private static final ExecutorService SENDERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "test-client");
        thread.setDaemon(true);
        return thread;
    });

    private final URI base;

    /** @param base the deployment's URL, such as {@code http://127.0.0.1:8080/sample/} */
    public Api(URL base) {
        this.base = URI.create(base.toString().endsWith("/") ? base.toString() : base + "/");
    }

    /** POSTs JSON as {@code user}; {@code key} may be null for a keyless request. */
    public HttpResponse<String> post(String user, String path, String key, String json) {
        HttpRequest.Builder request = request(user, path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return send(request.build());
    }

    /**
     * A debit of 100 as alice through the test resource's slow endpoint ({@code slow:v1}): it debits, then
     * holds its transaction, and so the key's claim, for {@code sleepMillis}.
     */
    public HttpRequest slowDebit(long account, String key, long sleepMillis) {
        return request("alice", "api/test/accounts/" + account + "/slow")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .header("X-Test-Sleep-Millis", Long.toString(sleepMillis))
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 100}"))
                .build();
    }

    /**
     * A debit of 100 as alice through the slow endpoint ({@code slow:v1}) that, once it has debited, holds its
     * transaction, and so the key's claim, at the gate named {@code gate} until {@link #openGate} opens it.
     */
    public HttpRequest gatedDebit(long account, String key, String gate) {
        return request("alice", "api/test/accounts/" + account + "/slow")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .header("X-Test-Gate", gate)
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 100}"))
                .build();
    }

    /**
     * Waits until {@code requests} requests are held at the gate, asking the application; fails after a minute.
     * A wait for a state the test can see, never for a time.
     */
    public void awaitAtGate(String gate, int requests) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (Integer.parseInt(get("alice", "api/test/gates/" + gate).body().trim()) < requests) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(requests + " request(s) never reached gate " + gate);
            }
            Thread.sleep(20);
        }
    }

    /** How many requests have reached the gate so far. */
    public int gateArrivals(String gate) {
        return Integer.parseInt(get("alice", "api/test/gates/" + gate).body().trim());
    }

    /** Opens the gate: every request held there, and every later one, goes on. */
    public void openGate(String gate) {
        HttpResponse<String> opened = post("alice", "api/test/gates/" + gate, null, "{}");
        if (opened.statusCode() != 200) {
            throw new IllegalStateException("gate " + gate + " not opened: " + opened.body());
        }
    }

    /** PUTs JSON as {@code user}. */
    public HttpResponse<String> put(String user, String path, String json) {
        return send(request(user, path)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    public HttpResponse<String> get(String user, String path) {
        return send(request(user, path).GET().build());
    }

    /** Sends the request on a thread of its own, so that it runs while the test goes on. */
    public static CompletableFuture<HttpResponse<String>> sendLater(HttpRequest request) {
        return CompletableFuture.supplyAsync(() -> send(request), SENDERS);
    }

    /** Runs {@code call} on a thread of its own, so that it runs while the test goes on. */
    public static <T> CompletableFuture<T> later(java.util.function.Supplier<T> call) {
        return CompletableFuture.supplyAsync(call, SENDERS);
    }

    /** Opens a fresh account for {@code user} with {@code balance} and returns its id. */
    public long openAccount(String user, long balance) {
        HttpResponse<String> response = post(user, "api/accounts", null, "{\"balance\": " + balance + "}");
        if (response.statusCode() != 201) {
            throw new IllegalStateException(
                    "could not open an account: " + response.statusCode() + " " + response.body());
        }
        return json(response).get("id").asLong();
    }

    public static JsonNode json(HttpResponse<String> response) {
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + response.body(), e);
        }
    }

    public HttpRequest.Builder request(String user, String path) {
        String credentials = Base64.getEncoder().encodeToString((user + ":" + user).getBytes(StandardCharsets.UTF_8));
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        return user == null ? builder : builder.header("Authorization", "Basic " + credentials);
    }

    /**
     * Sends on a connection of its own, never a pooled one, so a fault armed on a proxy applies to exactly
     * this request. Throws if the connection breaks before a response arrives.
     */
    public static HttpResponse<String> sendOnNewConnection(HttpRequest request) throws IOException {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static HttpResponse<String> send(HttpRequest request) {
        try {
            return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
