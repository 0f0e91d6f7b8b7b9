package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.File;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The per-operation protocol options, on two WildFly nodes sharing one PostgreSQL: {@code concurrent=reject}
 * answers a duplicate in flight with 409 at once, on the node that runs the first and on the other;
 * {@code ignore=} replays a retry whose left-out member changed and still refuses a change elsewhere; {@code
 * after-expiry=refuse} refuses a retry after the retention, through the purge, until its window ends.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ProtocolOptionsIT {
    private static LocalServer otherNode;

    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        String settings = Files.readString(Path.of("src/test/resources/test-idempotency.properties"))
                .replace(
                        "POST /api/test/accounts/{id}/slow = slow:v1 retention=PT2H",
                        "POST /api/test/accounts/{id}/slow = slow:v1 retention=PT2H concurrent=reject")
                .replace(
                        "POST /api/accounts/{id}/debits = debit:v1",
                        "POST /api/accounts/{id}/debits = debit:v1 ignore=/body/json/requestedAt|/query/nonce"
                                + " after-expiry=refuse");
        // A lock timeout longer than a test gate ever holds a request: a duplicate that waited would outlast the
        // gate and run, so a 409 while the gate is still closed proves that it did not wait. With both opt-ins for
        // SDKs, whose hints the answers below assert.
        return SampleDeployment.create("protocol.war")
                .addAsWebInfResource(
                        new StringAsset(settings
                                + "purge-interval = PT1S\nlock-timeout = PT2M\nretry-hints = sdk\n"
                                + "problem-error-member = stripe\n"),
                        "idempotency.properties");
    }

    @BeforeAll
    static void startTheOtherNode() throws Exception {
        Path war = Path.of("target", "protocol-node-war", "protocol.war");
        Files.createDirectories(war.getParent());
        deployment().as(ZipExporter.class).exportTo(new File(war.toString()), true);
        otherNode = LocalServer.start(
                Path.of(System.getProperty("jboss.home")), "protocol-node", Map.of("protocol.war", war), 100);
    }

    @AfterAll
    static void stopTheOtherNode() {
        if (otherNode != null) {
            otherNode.close();
        }
    }

    @ArquillianResource
    URL base;

    @Test
    void rejectAnswersADuplicateInFlightAtOnceOnTheSameNodeThenReplaysTheFirst() throws Exception {
        rejectsAtOnce(new Api(base), new Api(base));
    }

    @Test
    void rejectAnswersADuplicateInFlightAtOnceOnAnotherNode() throws Exception {
        rejectsAtOnce(new Api(base), new Api(new URL("http://127.0.0.1:8180/protocol/")));
    }

    private static void rejectsAtOnce(Api first, Api duplicateNode) throws Exception {
        long account = first.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String gate = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> running = Api.sendLater(first.gatedDebit(account, key, gate));
        first.awaitAtGate(gate, 1);

        HttpResponse<String> duplicate;
        try {
            duplicate = Api.send(duplicateNode.slowDebit(account, key, 0));
        } finally {
            first.openGate(gate);
        }

        assertEquals(409, duplicate.statusCode(), duplicate.body());
        assertTrue(duplicate.body().contains("request-in-progress"), duplicate.body());
        assertTrue(duplicate.body().contains("does not wait for it"), duplicate.body());
        // The client is told to wait the lock-timeout it was not given at the server, plus the key's jitter.
        long retryAfterMs =
                Long.parseLong(duplicate.headers().firstValue("retry-after-ms").orElseThrow());
        assertTrue(retryAfterMs >= 120_000 && retryAfterMs <= 150_000, "retry-after-ms " + retryAfterMs);
        assertEquals(
                Long.toString((retryAfterMs + 999) / 1000),
                duplicate.headers().firstValue("Retry-After").orElseThrow());
        assertEquals("true", duplicate.headers().firstValue("x-should-retry").orElse("absent"));
        assertEquals(
                "true", duplicate.headers().firstValue("Stripe-Should-Retry").orElse("absent"));
        assertTrue(duplicate.body().contains("\"error\":{\"type\":\"idempotency_error\""), duplicate.body());
        assertEquals(200, running.get().statusCode(), running.get().body());
        assertEquals(
                "absent", running.get().headers().firstValue("x-should-retry").orElse("absent"), "a first execution");
        HttpResponse<String> retry = Api.send(duplicateNode.slowDebit(account, key, 0));
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), retry.body());
        assertEquals("absent", retry.headers().firstValue("x-should-retry").orElse("absent"), "a replayed 200");
        assertEquals(900, Database.balance(account));
    }

    @Test
    void rejectReplaysEightRetriesAtOnceOfAFinishedRequestOnOneNode() throws Exception {
        retriesAtOnceAreAllReplayed(List.of(new Api(base)));
    }

    @Test
    void rejectReplaysEightRetriesAtOnceOfAFinishedRequestAcrossTwoNodes() throws Exception {
        retriesAtOnceAreAllReplayed(List.of(new Api(base), new Api(new URL("http://127.0.0.1:8180/protocol/"))));
    }

    /**
     * The first request commits; then eight retries leave together, spread over {@code nodes}, each on a connection
     * of its own. A retry beside another retry is not a duplicate in flight: every one is the stored response.
     */
    private static void retriesAtOnceAreAllReplayed(List<Api> nodes) throws Exception {
        Api first = nodes.get(0);
        long account = first.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        HttpResponse<String> executed = Api.send(first.slowDebit(account, key, 0));
        assertEquals(200, executed.statusCode(), executed.body());
        CountDownLatch start = new CountDownLatch(1);
        List<CompletableFuture<HttpResponse<String>>> retries = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Api node = nodes.get(i % nodes.size());
            retries.add(CompletableFuture.supplyAsync(() -> {
                try {
                    start.await();
                    return Api.sendOnNewConnection(node.slowDebit(account, key, 0));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        start.countDown();
        for (CompletableFuture<HttpResponse<String>> retry : retries) {
            HttpResponse<String> replayed = retry.get(60, TimeUnit.SECONDS);
            assertEquals(200, replayed.statusCode(), replayed.body());
            assertEquals(
                    "true", replayed.headers().firstValue("Idempotent-Replayed").orElse(""), replayed.body());
            assertEquals(executed.body(), replayed.body());
        }
        assertEquals(900, Database.balance(account));
    }

    @Test
    void ignoreReplaysARetryWhoseLeftOutPartsChangedAndRefusesAChangeElsewhere() {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String debits = "api/accounts/" + account + "/debits";

        HttpResponse<String> first =
                api.post("alice", debits + "?nonce=1", key, "{\"amount\": 100, \"requestedAt\": \"10:00:00\"}");
        HttpResponse<String> retry =
                api.post("alice", debits + "?nonce=2", key, "{\"requestedAt\": \"10:00:05\", \"amount\": 100}");
        HttpResponse<String> changed =
                api.post("alice", debits + "?nonce=3", key, "{\"amount\": 101, \"requestedAt\": \"10:00:09\"}");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), retry.body());
        assertEquals(first.body(), retry.body());
        assertEquals(422, changed.statusCode(), changed.body());
        assertEquals(
                "[\"/body/json/amount\"]", Api.json(changed).get("mismatches").toString());
        assertEquals(900, Database.balance(account));
        assertTrue(
                Database.record("alice", "debit:v1", key)
                        .orElseThrow()
                        .request()
                        .contains("\"ignored\":"),
                "the stored request names what it left out");
    }

    @Test
    void afterExpiryRefuseRefusesALateRetryThroughThePurgeUntilItsWindowEnds() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String debits = "api/accounts/" + account + "/debits";
        assertEquals(200, api.post("alice", debits, key, "{\"amount\": 100}").statusCode());
        // The retention (24 hours) has passed; the record is kept for the late-retry window (7 days) after it.
        Database.execute(
                "UPDATE request_result SET created_at = created_at - interval '25 hours'" + " WHERE request_key = ?",
                key);
        awaitAPurgeAfterNow(api);

        HttpResponse<String> late = api.post("alice", debits, key, "{\"amount\": 100}");

        assertEquals(410, late.statusCode(), late.body());
        assertTrue(late.body().contains("idempotency-key-expired"), late.body());
        assertEquals(
                "false", late.headers().firstValue("x-should-retry").orElse("absent"), "a retry cannot change a 410");
        assertEquals("false", late.headers().firstValue("Stripe-Should-Retry").orElse("absent"));
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCountForKey(key));

        // After the window, the purge deletes the record, and a retry is a new request again.
        Database.execute(
                "UPDATE request_result SET expires_at = now() - interval '1 minute' WHERE request_key = ?", key);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (Database.recordCountForKey(key) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        HttpResponse<String> afterTheWindow = api.post("alice", debits, key, "{\"amount\": 100}");
        assertEquals(200, afterTheWindow.statusCode(), afterTheWindow.body());
        assertEquals(800, Database.balance(account));
    }

    /**
     * Waits until the purge has run at least once after this point: a canary record, expired now, is gone. The
     * purge runs every second here, but the test waits for what it can see, never for a time.
     */
    private static void awaitAPurgeAfterNow(Api api) throws Exception {
        String canary = UUID.randomUUID().toString();
        long account = api.openAccount("alice", 1000);
        assertEquals(
                200,
                api.post("alice", "api/accounts/" + account + "/debits", canary, "{\"amount\": 100}")
                        .statusCode());
        Database.execute(
                "UPDATE request_result SET expires_at = now() - interval '1 minute' WHERE request_key = ?", canary);
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (Database.recordCountForKey(canary) > 0) {
            assertTrue(System.nanoTime() < deadline, "the purge never ran");
            Thread.sleep(50);
        }
    }
}
