package dev.idempotency.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A debit covered correctly, in memory, the way the filter behaves on the wire: the first request with a
 * key executes and its response is stored before it is sent; a retry of the same caller with the same key
 * and body gets the stored response with {@code Idempotent-Replayed: true}; a different body gets 422; a
 * duplicate waits for the first up to a bound, then gets 409. Keyless requests follow the rollout mode.
 * Every request must carry {@code Authorization}, which scopes the keys as the filter's principal does.
 */
final class CoveredDebitEndpoint implements HttpHandler {
    /** A key's record: the request it was made for, and the response once the first request completed. */
    private record Claim(byte[] request, CompletableFuture<String> response) {}

    private final FakeAccount account;
    private final String keyHeader;
    private final FakeRolloutMode mode;
    private final Duration executionTime;
    private final Duration waitBound;
    private final ConcurrentMap<String, Claim> claims = new ConcurrentHashMap<>();
    private final List<String> keysSeen = new CopyOnWriteArrayList<>();

    CoveredDebitEndpoint(
            FakeAccount account, String keyHeader, FakeRolloutMode mode, Duration executionTime, Duration waitBound) {
        this.account = account;
        this.keyHeader = keyHeader;
        this.mode = mode;
        this.executionTime = executionTime;
        this.waitBound = waitBound;
    }

    /** The standard key header, an execution long enough for duplicates to overlap, and a generous wait. */
    static CoveredDebitEndpoint inMode(FakeRolloutMode mode, FakeAccount account) {
        return new CoveredDebitEndpoint(
                account, FilterProtocol.DEFAULT_KEY_HEADER, mode, Duration.ofMillis(200), Duration.ofSeconds(5));
    }

    List<String> keysSeen() {
        return keysSeen;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String caller = exchange.getRequestHeaders().getFirst("Authorization");
            String key = exchange.getRequestHeaders().getFirst(keyHeader);
            if (caller == null) {
                FakeServer.respond(exchange, 401, "text/plain", "authenticate first", Map.of());
            } else if (key == null) {
                keyless(exchange, body);
            } else {
                keysSeen.add(key);
                keyed(exchange, caller + " " + key, body);
            }
        } finally {
            exchange.close();
        }
    }

    private void keyless(HttpExchange exchange, byte[] body) throws IOException {
        switch (mode) {
            case REQUIRED -> FakeServer.problem(exchange, 400, FilterProtocol.PROBLEM_KEY_REQUIRED);
            case OPTIONAL -> FakeServer.respond(
                    exchange,
                    200,
                    "application/json",
                    execute(body),
                    Map.of(FilterProtocol.DEPRECATION_HEADER, "@1767225600"));
            case DRAIN, OFF -> FakeServer.respond(exchange, 200, "application/json", execute(body), Map.of());
        }
    }

    private void keyed(HttpExchange exchange, String scopedKey, byte[] body) throws IOException {
        Claim mine = new Claim(body, new CompletableFuture<>());
        Claim first = claims.putIfAbsent(scopedKey, mine);
        if (first == null) {
            String response = execute(body);
            mine.response().complete(response);
            FakeServer.respond(exchange, 200, "application/json", response, Map.of());
        } else if (!Arrays.equals(first.request(), body)) {
            FakeServer.problem(exchange, 422, FilterProtocol.PROBLEM_KEY_REUSED);
        } else {
            replayWhenDone(exchange, first);
        }
    }

    private void replayWhenDone(HttpExchange exchange, Claim first) throws IOException {
        try {
            String stored = first.response().get(waitBound.toMillis(), TimeUnit.MILLISECONDS);
            FakeServer.respond(
                    exchange, 200, "application/json", stored, Map.of(FilterProtocol.REPLAYED_HEADER, "true"));
        } catch (TimeoutException e) {
            FakeServer.problem(exchange, 409, FilterProtocol.PROBLEM_REQUEST_IN_PROGRESS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } catch (ExecutionException e) {
            throw new IOException(e);
        }
    }

    /** Runs the debit, taking {@code executionTime}, and returns its response body. */
    private String execute(byte[] body) throws IOException {
        try {
            Thread.sleep(executionTime.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return account.debit(body);
    }
}
