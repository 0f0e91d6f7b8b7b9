package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
                .addClass(StoreContractServlet.class)
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
        // Longer than H2's own two-second lock timeout, so the store's retries carry the wait on H2.
        CompletableFuture<String> winner = claimLater(key, "first", 2_500, "commit", 0);
        CompletableFuture<String> duplicate = claimLater(key, "first", 0, "commit", 300);

        assertEquals("claimed", winner.get());
        assertEquals("existing first 200 done:" + key, duplicate.get());
    }

    @Test
    void waitingDuplicateWhoseWinnerRollsBackExecutesItselfOnce() throws Exception {
        String key = newKey();
        CompletableFuture<String> winner = claimLater(key, "first", 1_500, "rollback", 0);
        CompletableFuture<String> duplicate = claimLater(key, "first", 0, "commit", 300);

        assertEquals("claimed", winner.get());
        assertEquals("claimed", duplicate.get());
        assertEquals(1, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", key));
        assertEquals("existing first 200 done:" + key, claim(key, "first", 0, "commit", 5));
    }

    @Test
    void duplicateGivesUpAtItsWaitBound() throws Exception {
        String key = newKey();
        CompletableFuture<String> winner = claimLater(key, "first", 4_000, "commit", 0);
        CompletableFuture<String> duplicate = claimLater(key, "first", 0, "commit", 300, 1);

        assertEquals("in-progress", duplicate.get());
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
                        java.sql.Timestamp.from(java.time.Instant.now().minusSeconds(7_200)),
                        expired);

        int deleted = Integer.parseInt(post("purge", Map.of("batch", "1000")));

        assertTrue(deleted >= 1, "deleted " + deleted);
        assertEquals(0, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", expired));
        assertEquals(1, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", current));
    }

    @Test
    void keysCompareByteByByte() {
        String prefix = UUID.randomUUID().toString();
        // Case, a trailing space, and the same letter composed (U+00E9) and decomposed (e + U+0301).
        for (String key : new String[] {"Key", "key", "key ", "k\u00e9y", "ke\u0301y"}) {
            assertEquals("claimed", claim(prefix + key, "r", 0, "commit", 5), "key '" + key + "'");
        }
        assertEquals(5, engine().count("SELECT count(*) FROM request_result WHERE request_key LIKE ?", prefix + "%"));
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
        // Longer than H2's own two-second lock timeout, so the shared claim loop carries the wait on H2.
        CompletableFuture<String> first = messageLater(id, 2_500, "commit", 0);
        CompletableFuture<String> redelivery = messageLater(id, 0, "commit", 300);

        assertEquals("first", first.get());
        assertEquals("redelivery", redelivery.get());
        assertEquals(1, engine().count("SELECT count(*) FROM processed_message WHERE message_id = ?", id));
    }

    @Test
    void aRedeliveryWaitingOnADeliveryThatRollsBackAppliesItItself() throws Exception {
        String id = newKey();
        CompletableFuture<String> first = messageLater(id, 1_500, "rollback", 0);
        CompletableFuture<String> redelivery = messageLater(id, 0, "commit", 300);

        assertEquals("first", first.get());
        assertEquals("first", redelivery.get());
        assertEquals(1, engine().count("SELECT count(*) FROM processed_message WHERE message_id = ?", id));
    }

    private CompletableFuture<String> messageLater(String id, long hold, String end, long delay) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return post(
                            "message",
                            Map.of(
                                    "subscriber",
                                    "contract",
                                    "id",
                                    id,
                                    "payload",
                                    "{\"amount\": 1}",
                                    "hold",
                                    Long.toString(hold),
                                    "end",
                                    end));
                },
                CLIENTS);
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private String claim(String key, String request, long holdMillis, String end, long waitSeconds) {
        return post(
                "claim",
                Map.of(
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
                        Long.toString(waitSeconds)));
    }

    private CompletableFuture<String> claimLater(String key, String request, long hold, String end, long delay) {
        return claimLater(key, request, hold, end, delay, 10);
    }

    private CompletableFuture<String> claimLater(
            String key, String request, long hold, String end, long delay, long waitSeconds) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return claim(key, request, hold, end, waitSeconds);
                },
                CLIENTS);
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
