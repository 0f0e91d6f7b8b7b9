package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.sample.support.Api;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The store's contract, the same for every engine: each subclass names one real engine, and every scenario
 * runs in WildFly's JTA transactions on that engine's non-XA datasource ({@link StoreContractServlet}). What
 * the engine is asked to do is exactly what the filter asks of it on the request path.
 */
@RunAsClient
abstract class StoreContractIT {
    /** Its own threads: the common pool has a single thread on a two-core machine, which would serialize them. */
    private static final ExecutorService CLIENTS = Executors.newCachedThreadPool();

    @ArquillianResource
    URL base;

    /** The engine under test. */
    abstract Engine engine();

    /** The servlet and the filter's jar; subclasses deploy it under a name of their own. */
    static WebArchive contractDeployment(String archiveName) {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addClasses(StoreContractServlet.class, dev.idempotency.sample.faults.Gates.class)
                .addAsLibrary(new java.io.File(System.getProperty("filter.jar")), "idempotency-filter.jar");
    }

    @Test
    void claimCommitThenReplayTheStoredResponse() {
        String key = newKey();
        assertEquals("claimed", claim(key, "first", 0, "commit", 5));
        assertEquals("existing first 200 done:" + key, claim(key, "second", 0, "commit", 5));
    }

    @Test
    void concurrentDuplicateWaitsForTheWinnerThenReplays() throws Exception {
        String key = newKey();
        String gate = newKey();
        // Held longer than H2's own two-second lock timeout, so the store's retries carry the wait on H2.
        CompletableFuture<String> winner = claimHeld(key, gate, 2_500, "commit");
        awaitAtGate(gate);
        CompletableFuture<String> duplicate = claimLater(key, 10);
        openGate(gate);

        assertEquals("claimed", winner.get());
        assertEquals("existing first 200 done:" + key, duplicate.get());
    }

    @Test
    void waitingDuplicateWhoseWinnerRollsBackExecutesItselfOnce() throws Exception {
        String key = newKey();
        String gate = newKey();
        CompletableFuture<String> winner = claimHeld(key, gate, 1_500, "rollback");
        awaitAtGate(gate);
        CompletableFuture<String> duplicate = claimLater(key, 10);
        openGate(gate);

        assertEquals("claimed", winner.get());
        assertEquals("claimed", duplicate.get());
        assertEquals(1, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", key));
        assertEquals("existing first 200 done:" + key, claim(key, "first", 0, "commit", 5));
    }

    @Test
    void duplicateGivesUpAtItsWaitBound() throws Exception {
        String key = newKey();
        String gate = newKey();
        CompletableFuture<String> winner = claimHeld(key, gate, 0, "commit");
        awaitAtGate(gate);

        // The winner stays at its gate until the duplicate has answered: one that outwaited its bound would wait
        // until the gate gave up on the test, then find the key free and claim it.
        String duplicate;
        try {
            duplicate = claim(key, "first", 0, "commit", 1);
        } finally {
            openGate(gate);
        }

        assertEquals("in-progress", duplicate);
        assertEquals("claimed", winner.get());
    }

    @Test
    void aRolledBackClaimLeavesNothing() {
        String key = newKey();
        assertEquals("claimed", claim(key, "first", 0, "rollback", 5));
        assertEquals(0, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", key));
    }

    @Test
    void purgeDeletesExpiredRecordsOnly() throws Exception {
        String expired = newKey();
        String current = newKey();
        claim(expired, "r", 0, "commit", 5);
        claim(current, "r", 0, "commit", 5);
        engine().execute(
                        "UPDATE request_result SET expires_at = ? WHERE request_key = ?",
                        engine().storedTime(java.time.Instant.now().minusSeconds(7_200)),
                        expired);

        int deleted = Integer.parseInt(post("purge", Map.of("batch", "1000")));

        assertTrue(deleted >= 1, "deleted " + deleted);
        assertEquals(0, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", expired));
        assertEquals(1, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", current));
    }

    @Test
    void keysCompareByteByByte() {
        String prefix = UUID.randomUUID().toString();
        SqlDialect dialect = dev.idempotency.dialect.Engine.dialectNamed(engine().ddl());
        int claimed = 0;
        // Case, a trailing space, and the same letter composed (U+00E9) and decomposed (e + U+0301).
        for (String key : new String[] {"Key", "key", "key ", "k\u00e9y", "ke\u0301y"}) {
            if (dialect.refusedIdentityPart(prefix + key).isPresent()) {
                // An engine that cannot keep the key apart (Derby pads trailing spaces away) must refuse it.
                String answer = claim(prefix + key, "r", 0, "commit", 5);
                assertTrue(answer.startsWith("refused: "), "key '" + key + "': " + answer);
                continue;
            }
            assertEquals("claimed", claim(prefix + key, "r", 0, "commit", 5), "key '" + key + "'");
            claimed++;
        }
        assertEquals(
                claimed, engine().count("SELECT count(*) FROM request_result WHERE request_key LIKE ?", prefix + "%"));
    }

    @Test
    void consumerRecordsAMessageOnceAndRefusesAnotherPayload() {
        String id = newKey();
        Map<String, String> first = Map.of("subscriber", "contract", "id", id, "payload", "{\"amount\": 1}");
        assertEquals("first", post("message", first));
        assertEquals("redelivery", post("message", first));
        assertEquals(
                "mismatch", post("message", Map.of("subscriber", "contract", "id", id, "payload", "{\"amount\": 2}")));
        assertEquals("first", post("message", Map.of("subscriber", "other", "id", id, "payload", "{\"amount\": 1}")));
    }

    @Test
    void concurrentRedeliveriesOfOneMessageApplyItOnce() throws Exception {
        String id = newKey();
        String gate = newKey();
        // Held longer than H2's own two-second lock timeout, so the shared claim loop carries the wait on H2.
        CompletableFuture<String> first = messageHeld(id, gate, 2_500, "commit");
        awaitAtGate(gate);
        CompletableFuture<String> redelivery = messageHeld(id, null, 0, "commit");
        openGate(gate);

        assertEquals("first", first.get());
        assertEquals("redelivery", redelivery.get());
        assertEquals(1, engine().count("SELECT count(*) FROM processed_message WHERE message_id = ?", id));
    }

    @Test
    void aRedeliveryWaitingOnADeliveryThatRollsBackAppliesItItself() throws Exception {
        String id = newKey();
        String gate = newKey();
        CompletableFuture<String> first = messageHeld(id, gate, 1_500, "rollback");
        awaitAtGate(gate);
        CompletableFuture<String> redelivery = messageHeld(id, null, 0, "commit");
        openGate(gate);

        assertEquals("first", first.get());
        assertEquals("first", redelivery.get());
        assertEquals(1, engine().count("SELECT count(*) FROM processed_message WHERE message_id = ?", id));
    }

    /** The consumer's claim of message {@code id}, held at {@code gate} (when not null) and then for {@code hold} ms. */
    private CompletableFuture<String> messageHeld(String id, String gate, long hold, String end) {
        Map<String, String> parameters = new java.util.HashMap<>(
                Map.of("subscriber", "contract", "id", id, "payload", "{\"amount\": 1}", "hold", Long.toString(hold)));
        parameters.put("end", end);
        if (gate != null) {
            parameters.put("gate", gate);
        }
        return CompletableFuture.supplyAsync(() -> post("message", parameters), CLIENTS);
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private String claim(String key, String request, long holdMillis, String end, long waitSeconds) {
        return post("claim", claimParameters(key, request, holdMillis, end, waitSeconds));
    }

    /** A claim of {@code key} that, once claimed, holds at {@code gate} until the test opens it, then for {@code hold} ms. */
    private CompletableFuture<String> claimHeld(String key, String gate, long hold, String end) {
        Map<String, String> parameters = new java.util.HashMap<>(claimParameters(key, "first", hold, end, 10));
        parameters.put("gate", gate);
        return CompletableFuture.supplyAsync(() -> post("claim", parameters), CLIENTS);
    }

    private static Map<String, String> claimParameters(
            String key, String request, long holdMillis, String end, long waitSeconds) {
        return Map.of(
                "scope",
                "contract",
                "operation",
                "contract:v1",
                "key",
                key,
                "request",
                request,
                "hold",
                Long.toString(holdMillis),
                "end",
                end,
                "wait",
                Long.toString(waitSeconds));
    }

    /** A claim of {@code key} with request {@code first}, committed when claimed, sent now from another client. */
    private CompletableFuture<String> claimLater(String key, long waitSeconds) {
        return CompletableFuture.supplyAsync(() -> claim(key, "first", 0, "commit", waitSeconds), CLIENTS);
    }

    /** Waits until a claim holds at the gate, asking the servlet; never for a time, and at most a minute. */
    private void awaitAtGate(String gate) throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
        while (Integer.parseInt(post("arrived", Map.of("name", gate))) == 0) {
            assertTrue(System.nanoTime() < deadline, "nothing reached gate " + gate);
            Thread.sleep(20);
        }
    }

    private void openGate(String gate) {
        post("open", Map.of("name", gate));
    }

    private String post(String operation, Map<String, String> parameters) {
        String query = parameters.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        URI uri = URI.create(base + "contract/" + operation + "?datasource="
                + URLEncoder.encode(engine().jndiName(), StandardCharsets.UTF_8) + "&" + query);
        HttpResponse<String> response = Api.send(HttpRequest.newBuilder(uri)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }
}
