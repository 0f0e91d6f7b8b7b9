package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import java.io.File;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample, unchanged, on two WildFly nodes, each on its own node of a real three-node MariaDB Galera cluster:
 * the one Arquillian manages on Galera node 1, and a second one this test starts (ports moved by 300) on Galera
 * node 2. Across Galera nodes nothing locks a key until a transaction is certified, so these prove that the
 * filter's claim still makes a duplicate wait and replay, that a retry on the other node replays, and that a
 * node's failure leaves nothing half-done. The faults come last: node 2 is cut off and let back in, then killed.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(GaleraExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GaleraIT {
    private static final String ARCHIVE = "sample-galera.war";
    private static final int KEYS = 20;
    private static final int CLIENTS_PER_NODE = 3;
    private static final int SECOND_NODE_OFFSET = 300;

    private static WebArchive archive;
    private static LocalServer secondNode;

    @ArquillianResource
    URL base;

    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        archive = EngineEndToEndIT.sampleOn(Engine.GALERA, ARCHIVE);
        return archive;
    }

    @BeforeAll
    static void startSecondNode() throws Exception {
        Path war = Path.of("target", "galera-node-war", ARCHIVE);
        Files.createDirectories(war.getParent());
        archive.as(ZipExporter.class).exportTo(new File(war.toString()), true);
        secondNode = LocalServer.start(
                Path.of(System.getProperty("jboss.home")),
                "galera-second-node",
                Map.of(ARCHIVE, war),
                SECOND_NODE_OFFSET,
                Map.of("galera.port", Integer.toString(cluster().sqlPort(2))));
    }

    @AfterAll
    static void stopSecondNode() {
        if (secondNode != null) {
            secondNode.close();
        }
    }

    /**
     * Duplicates released at the same instant on both nodes: which node wins each key is up to the scheduler and
     * the cluster's certification, so only the guarantee is asserted; the forced orders come in the next test.
     */
    @Test
    @Order(1)
    void concurrentDuplicatesOnTwoNodesExecuteOnceAndEveryClientGetsTheWinnersAnswer() throws Exception {
        Api first = new Api(base);
        Api second = secondApi();
        long abortsBefore = conflictAborts();
        int executedOnSecond = 0;

        for (int i = 0; i < KEYS; i++) {
            long account = first.openAccount("alice", 1000);
            String key = UUID.randomUUID().toString();

            List<HttpResponse<String>> answers = Duplicates.debitsAtOnce(
                    2 * CLIENTS_PER_NODE, client -> client % 2 == 0 ? first : second, account, key);

            for (HttpResponse<String> answer : answers) {
                assertEquals(200, answer.statusCode(), answer.uri() + ": " + answer.body());
                assertEquals("{\"balance\":900}", answer.body(), answer.uri().toString());
            }
            assertEquals(1, Duplicates.executed(answers), "one execution for key " + key);
            executedOnSecond += answers.stream()
                    .filter(answer ->
                            answer.headers().firstValue("Idempotent-Replayed").isEmpty())
                    .filter(answer -> answer.uri().getPort() == secondApiPort())
                    .count();
            assertEverywhere(key, account, 900);
        }
        System.out.println("GaleraIT: " + KEYS + " keys, second node executed " + executedOnSecond
                + ", claims aborted by the cluster and claimed again: " + (conflictAborts() - abortsBefore));
    }

    /**
     * The order forced, in both directions: the first request holds its claim inside the application on one node
     * until its duplicate on the other node is seen waiting in that node's database; then the first goes on. The
     * duplicate must then replay the first's answer, never run.
     */
    @Test
    @Order(2)
    void aDuplicateOnTheOtherNodeWaitsForTheHeldFirstAndReplaysIt() throws Exception {
        Api first = new Api(base);
        Api second = secondApi();
        duplicateWaitsAndReplays(first, second, 2);
        duplicateWaitsAndReplays(second, first, 1);
    }

    private void duplicateWaitsAndReplays(Api original, Api duplicateNode, int duplicatesGaleraNode) throws Exception {
        long account = original.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String gate = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> held = Api.sendLater(original.gatedDebit(account, key, gate));
        original.awaitAtGate(gate, 1);

        CompletableFuture<HttpResponse<String>> duplicate = Api.sendLater(duplicateNode.slowDebit(account, key, 0));
        awaitClaimRunning(duplicatesGaleraNode);
        original.openGate(gate);

        HttpResponse<String> answered = held.get();
        HttpResponse<String> replayed = duplicate.get();
        assertEquals(200, answered.statusCode(), answered.body());
        assertEquals("{\"balance\":900}", answered.body());
        assertTrue(answered.headers().firstValue("Idempotent-Replayed").isEmpty(), "the held request ran");
        assertEquals(200, replayed.statusCode(), replayed.body());
        assertEquals(answered.body(), replayed.body());
        assertEquals(
                "true", replayed.headers().firstValue("Idempotent-Replayed").orElse(""), key);
        assertEverywhere(key, account, 900);
    }

    /**
     * Waits until a claim is running on the Galera node: a client's {@code INSERT IGNORE INTO request_result} still
     * executing there. While the first request holds the key at its gate, a claim that has not answered is one
     * that waits for it.
     */
    private static void awaitClaimRunning(int node) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (cluster()
                        .count(
                                node,
                                "SELECT count(*) FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID()"
                                        + " AND USER <> 'system user' AND INFO LIKE '%INSERT IGNORE INTO request_result%'")
                == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no claim ran on Galera node " + node);
            }
            Thread.sleep(20);
        }
    }

    @Test
    @Order(3)
    void retryOnTheOtherNodeRightAfterTheFirstCommittedReplays() throws Exception {
        Api first = new Api(base);
        Api second = secondApi();
        for (int i = 0; i < KEYS; i++) {
            Api original = i % 2 == 0 ? first : second;
            Api retry = i % 2 == 0 ? second : first;
            long account = first.openAccount("alice", 1000);
            String key = UUID.randomUUID().toString();
            String debits = "api/accounts/" + account + "/debits";

            HttpResponse<String> answered = original.post("alice", debits, key, "{\"amount\": 100}");
            HttpResponse<String> replayed = retry.post("alice", debits, key, "{\"amount\": 100}");

            assertEquals(200, answered.statusCode(), answered.body());
            assertEquals(200, replayed.statusCode(), replayed.body());
            assertEquals(answered.body(), replayed.body());
            assertEquals(
                    "true", replayed.headers().firstValue("Idempotent-Replayed").orElse(""), key);
            assertEverywhere(key, account, 900);
        }
    }

    @Test
    @Order(4)
    void aNodeCutOffFromTheClusterRefusesWithStoreUnavailableAndRejoinsWithTheRecords() throws Exception {
        Api first = new Api(base);
        Api second = secondApi();
        long account = first.openAccount("alice", 1000);
        String debits = "api/accounts/" + account + "/debits";
        String refusedKey = UUID.randomUUID().toString();
        String keyWhileCutOff = UUID.randomUUID().toString();

        cluster().isolate(2, true);
        HttpResponse<String> refused;
        HttpResponse<String> elsewhere;
        try {
            refused = second.post("alice", debits, refusedKey, "{\"amount\": 100}");
            elsewhere = first.post("alice", debits, keyWhileCutOff, "{\"amount\": 100}");
        } finally {
            cluster().isolate(2, false);
        }

        assertEquals(503, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("urn:dev.idempotency:problem:store-unavailable"), refused.body());
        assertEquals(200, elsewhere.statusCode(), elsewhere.body());
        // Back in, node 2 has what the others committed meanwhile, and nothing of the refused request.
        assertEverywhere(keyWhileCutOff, account, 900);
        assertEquals(0, recordsOnEveryNode(refusedKey));

        HttpResponse<String> retried = second.post("alice", debits, refusedKey, "{\"amount\": 100}");
        assertEquals(200, retried.statusCode(), retried.body());
        assertEquals("{\"balance\":800}", retried.body());
        assertEverywhere(refusedKey, account, 800);
    }

    @Test
    @Order(5)
    void aNodeKilledMidRequestFailsItCleanlyAndTheRetryOnAnotherNodeRunsOnce() throws Exception {
        Api first = new Api(base);
        Api second = secondApi();
        long account = first.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String gate = UUID.randomUUID().toString();

        // Claimed and debited on node 2, whose database dies while the application still holds the transaction.
        CompletableFuture<HttpResponse<String>> held = Api.sendLater(second.gatedDebit(account, key, gate));
        second.awaitAtGate(gate, 1);
        cluster().kill(2);
        second.openGate(gate);
        HttpResponse<String> failed = held.get();

        assertEquals(503, failed.statusCode(), failed.body());
        assertTrue(failed.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        // The surviving nodes let go of the dead node's claim; until they have, the retry hears 409 and waits.
        HttpResponse<String> retried = retryUntilAnswered(() -> Api.send(first.slowDebit(account, key, 0)));
        assertEquals(200, retried.statusCode(), retried.body());
        assertTrue(retried.headers().firstValue("Idempotent-Replayed").isEmpty(), "the retry ran the debit");
        assertEquals("{\"balance\":900}", retried.body());

        for (int survivor : new int[] {1, 3}) {
            assertEquals(
                    1,
                    cluster().count(survivor, "SELECT count(*) FROM request_result WHERE request_key = '" + key + "'"));
            assertEquals(900, cluster().count(survivor, "SELECT balance FROM account WHERE id = " + account));
        }
    }

    private static HttpResponse<String> retryUntilAnswered(java.util.function.Supplier<HttpResponse<String>> send)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        HttpResponse<String> answer = send.get();
        while (answer.statusCode() == 409 && System.currentTimeMillis() < deadline) {
            Thread.sleep(500);
            answer = send.get();
        }
        return answer;
    }

    /** The record and the balance on every running node, read causally (after everything committed anywhere). */
    private static void assertEverywhere(String key, long account, long balance) throws Exception {
        for (int node = 1; node <= GaleraCluster.NODES; node++) {
            assertEquals(
                    1,
                    cluster().count(node, "SELECT count(*) FROM request_result WHERE request_key = '" + key + "'"),
                    "record of " + key + " on node " + node);
            assertEquals(
                    balance,
                    cluster().count(node, "SELECT balance FROM account WHERE id = " + account),
                    "balance of account " + account + " on node " + node);
        }
    }

    private static long recordsOnEveryNode(String key) throws Exception {
        long records = 0;
        for (int node = 1; node <= GaleraCluster.NODES; node++) {
            records += cluster().count(node, "SELECT count(*) FROM request_result WHERE request_key = '" + key + "'");
        }
        return records;
    }

    /** Transactions the cluster aborted for a conflict with another node's, on all nodes together. */
    private static long conflictAborts() throws Exception {
        long aborts = 0;
        for (int node = 1; node <= GaleraCluster.NODES; node++) {
            aborts += Long.parseLong(cluster().status(node, "wsrep_local_bf_aborts"));
            aborts += Long.parseLong(cluster().status(node, "wsrep_local_cert_failures"));
        }
        return aborts;
    }

    private static Api secondApi() throws Exception {
        return new Api(new URL("http://127.0.0.1:" + secondApiPort() + "/" + ARCHIVE.replace(".war", "") + "/"));
    }

    private static int secondApiPort() {
        return 8080 + SECOND_NODE_OFFSET;
    }

    private static GaleraCluster cluster() throws Exception {
        return GaleraCluster.start();
    }
}
