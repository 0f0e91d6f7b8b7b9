package dev.idempotency.sample.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/** Concurrent duplicates: the same keyed debit from many clients released at the same instant. */
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
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<HttpResponse<String>>> replies = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                Api api = apiFor.apply(i);
                replies.add(pool.submit(() -> {
                    start.await();
                    return api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": 100}");
                }));
            }
            start.countDown();
            int executed = 0;
            for (Future<HttpResponse<String>> reply : replies) {
                HttpResponse<String> response = reply.get();
                assertEquals(200, response.statusCode(), response.body());
                assertEquals(expectedBody, response.body());
                executed += response.headers().firstValue("Idempotent-Replayed").isEmpty() ? 1 : 0;
            }
            return executed;
        } finally {
            pool.shutdownNow();
        }
    }
}
