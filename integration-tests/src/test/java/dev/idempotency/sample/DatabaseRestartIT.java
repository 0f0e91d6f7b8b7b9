package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL restarts while requests hold their transactions open: the requests in flight fail, nothing
 * half-done survives, and retries with the same keys execute each debit exactly once.
 */
@RunAsClient
class DatabaseRestartIT extends SampleContainerTest {
    private static final int IN_FLIGHT = 6;

    @Test
    void restartWhileRequestsAreInFlightKeepsTheInvariantsAndLeavesNoOrphanedRows() throws Exception {
        Api api = new Api(base);
        // An account per request: each debit locks its account's row, and all of them must be held at once.
        List<Long> accounts = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        String gate = UUID.randomUUID().toString();
        for (int i = 0; i < IN_FLIGHT; i++) {
            long account = api.openAccount("alice", 1_000);
            String key = UUID.randomUUID().toString();
            accounts.add(account);
            keys.add(key);
            inFlight.add(Api.sendLater(api.gatedDebit(account, key, gate)));
        }
        api.awaitAtGate(gate, IN_FLIGHT);

        // Every request has claimed and debited, and holds its transaction, when the database goes away.
        PostgresExtension.restart();
        api.openGate(gate);

        for (CompletableFuture<HttpResponse<String>> request : inFlight) {
            HttpResponse<String> response = request.get();
            assertTrue(response.statusCode() >= 500 || response.statusCode() == 200, response.body());
        }
        for (int i = 0; i < IN_FLIGHT; i++) {
            HttpResponse<String> retry = retryUntilAnswered(api, accounts.get(i), keys.get(i));
            assertEquals(200, retry.statusCode(), retry.body());
            assertEquals(900, Database.balance(accounts.get(i)), "one debit of account " + accounts.get(i));
            assertEquals(1, Database.recordCountForKey(keys.get(i)));
        }
        assertEquals(0, Database.count("SELECT count(*) FROM request_result WHERE response_status IS NULL"));
    }

    /** Right after the restart the pool may still hand out a dead connection once; a client retries. */
    private static HttpResponse<String> retryUntilAnswered(Api api, long account, String key) throws Exception {
        long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
        HttpResponse<String> response = Api.send(api.slowDebit(account, key, 0));
        while (response.statusCode() >= 500 && System.nanoTime() < deadline) {
            Thread.sleep(200);
            response = Api.send(api.slowDebit(account, key, 0));
        }
        return response;
    }
}
