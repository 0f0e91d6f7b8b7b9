package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Test;

/** Concurrent duplicates race on the primary key: one executes, the others wait and replay. */
@RunAsClient
class ConcurrentDuplicatesIT extends SampleContainerTest {
    private static final int CLIENTS = 20;

    @Test
    void twentyConcurrentIdenticalRequestsDebitOnceAndAllGetTheSameBody() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<HttpResponse<String>>> replies = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                replies.add(clients.submit(() -> {
                    start.await();
                    return api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": 100}");
                }));
            }
            start.countDown();

            int executed = 0;
            for (Future<HttpResponse<String>> reply : replies) {
                HttpResponse<String> response = reply.get();
                assertEquals(200, response.statusCode(), response.body());
                assertEquals("{\"balance\":900}", response.body());
                if (response.headers().firstValue("Idempotent-Replayed").isEmpty()) {
                    executed++;
                }
            }
            assertEquals(1, executed, "exactly one response comes from an execution, the rest are replays");
            assertEquals(900, Database.balance(account));
            assertEquals(1, Database.recordCount("alice", "debit:v1", key));
        } finally {
            clients.shutdownNow();
        }
    }
}
