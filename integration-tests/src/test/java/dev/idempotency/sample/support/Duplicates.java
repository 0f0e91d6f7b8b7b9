package dev.idempotency.sample.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Concurrent duplicates: the same keyed request from many clients released at the same instant. */
public final class Duplicates {
    private Duplicates() {}

    /**
     * Sends {@code clients} identical debits of 100 under one key, client {@code i} through {@code
     * apiFor.apply(i)}, all released together; asserts every answer is 200 with {@code expectedBody}.
     *
     * @return how many answers came from an execution rather than a replay
     */
    public static int debitAtOnce(int clients, IntFunction<Api> apiFor, long account, String key, String expectedBody)
            throws Exception {
        List<HttpResponse<String>> responses = debitsAtOnce(clients, apiFor, account, key);
        for (HttpResponse<String> response : responses) {
            assertEquals(200, response.statusCode(), response.body());
            assertEquals(expectedBody, response.body());
        }
        return executed(responses);
    }

    /**
     * Sends {@code clients} identical debits of 100 under one key, client {@code i} through {@code
     * apiFor.apply(i)}, all released together.
     *
     * @return every answer, in client order; each one's {@code uri()} names the node that gave it
     */
    public static List<HttpResponse<String>> debitsAtOnce(
            int clients, IntFunction<Api> apiFor, long account, String key) throws Exception {
        return atOnce(clients, i -> {
            Api api = apiFor.apply(i);
            return () -> api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": 100}");
        });
    }

    /**
     * Sends {@code request} from {@code clients} clients released together; asserts every answer has {@code
     * expectedStatus} and the same body.
     *
     * @return how many answers came from an execution rather than a replay
     */
    public static int sendAtOnce(int clients, HttpRequest request, int expectedStatus) throws Exception {
        List<HttpResponse<String>> responses = atOnce(clients, i -> () -> Api.send(request));
        for (HttpResponse<String> response : responses) {
            assertEquals(expectedStatus, response.statusCode(), response.body());
            assertEquals(responses.get(0).body(), response.body());
        }
        return executed(responses);
    }

    private static List<HttpResponse<String>> atOnce(int clients, IntFunction<Callable<HttpResponse<String>>> client)
            throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<HttpResponse<String>>> replies = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Callable<HttpResponse<String>> send = client.apply(i);
                replies.add(pool.submit(() -> {
                    start.await();
                    return send.call();
                }));
            }
            start.countDown();
            List<HttpResponse<String>> responses = new ArrayList<>();
            for (Future<HttpResponse<String>> reply : replies) {
                responses.add(reply.get());
            }
            return responses;
        } finally {
            pool.shutdownNow();
        }
    }

    /** How many answers came from an execution rather than a replay. */
    public static int executed(List<HttpResponse<String>> responses) {
        return (int) responses.stream()
                .filter(response ->
                        response.headers().firstValue("Idempotent-Replayed").isEmpty())
                .count();
    }
}
