package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.SampleContainerTest;
import dev.idempotency.sample.support.SampleDeployment;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node dies while it holds a claim. A second WildFly (ports moved by 200) claims a key and sits inside the
 * application when its JVM is killed with {@code kill -9}; a duplicate on the node Arquillian manages waits
 * on the key meanwhile. The operating system closes the dead JVM's sockets, PostgreSQL ends its session and
 * rolls the claim back, and the waiting duplicate claims the key and executes once, well within
 * {@code lock-timeout} (10 s).
 */
@RunAsClient
class NodeCrashIT extends SampleContainerTest {
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);
    private static LocalServer doomedNode;

    @BeforeAll
    static void startDoomedNode() throws Exception {
        doomedNode = SampleDeployment.startTestNode("doomed-node", 200);
    }

    @AfterAll
    static void stopDoomedNode() {
        if (doomedNode != null) {
            doomedNode.close();
        }
    }

    @Test
    void duplicateWaitingOnAKilledNodesClaimIsReleasedAndExecutesOnce() throws Exception {
        Api survivor = new Api(base);
        Api doomed = new Api(new URL("http://127.0.0.1:8280/sample/"));
        long account = survivor.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();

        CompletableFuture<Void> lost = CompletableFuture.runAsync(() -> {
            try {
                Api.sendOnNewConnection(doomed.slowDebit(account, key, 120_000));
            } catch (Exception e) {
                // The node dies before it answers.
            }
        });
        await(
                "the doomed node's request inside the application",
                () -> Database.count("SELECT count(*) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%'"
                        + " AND query LIKE 'update account%'"));
        CompletableFuture<HttpResponse<String>> duplicate = Api.sendLater(survivor.slowDebit(account, key, 0));
        await(
                "the duplicate waiting on the key",
                () -> Database.count("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE 'WITH claim AS (INSERT INTO request_result%'"));

        long killed = System.nanoTime();
        doomedNode.kill();
        HttpResponse<String> released = duplicate.get();
        Duration releasedAfter = Duration.ofNanos(System.nanoTime() - killed);
        lost.get();

        System.out.println("NodeCrashIT: the duplicate was answered " + releasedAfter.toMillis()
                + " ms after the holder's JVM was killed");
        assertEquals(200, released.statusCode(), released.body());
        assertTrue(released.headers().firstValue("Idempotent-Replayed").isEmpty(), "the duplicate executed");
        assertEquals("{\"balance\":900}", released.body());
        assertTrue(releasedAfter.compareTo(LOCK_TIMEOUT) < 0, "released only after " + releasedAfter);
        assertEquals(900, Database.balance(account), "the debit happened exactly once");
        assertEquals(1, Database.recordCountForKey(key));
        assertEquals(
                0,
                Database.count("SELECT count(*) FROM request_result WHERE response_status IS NULL"
                        + " AND request_key = '" + key + "'"),
                "nothing provisional is left");
    }

    private static void await(String what, LongSupplier count) throws InterruptedException {
        for (int attempt = 0; attempt < 1_200; attempt++) { // up to a minute
            if (count.getAsLong() > 0) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("never saw " + what);
    }
}
