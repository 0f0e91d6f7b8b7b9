package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The protocol's edges (draft-ietf-httpapi-idempotency-key-header): malformed keys, waiting duplicates,
 * oversized bodies, responses the filter cannot hold, header allowlist, safe methods. The test deployment
 * sets max-request-body 4096, max-response-body 8192 and lock-timeout PT2S.
 */
@Tag("core")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ProtocolEdgesIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws IOException {
        // A short wait, so a duplicate behind a slow request gives up quickly.
        return SampleDeployment.withExtraSettings("sample.war", "lock-timeout = PT2S");
    }

    @ArquillianResource
    URL base;

    Api api;
    String key;
    long account;

    @BeforeEach
    void freshAccountAndKey() {
        api = new Api(base);
        key = UUID.randomUUID().toString();
        account = api.openAccount("alice", 1000);
    }

    @Test
    void keySentTwiceIsRefusedWith400BeforeAnyEffect() {
        HttpResponse<String> refused = Api.send(api.request("alice", debits())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .header("Idempotency-Key", key + "-other")
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 100}"))
                .build());

        assertProblem(refused, 400, "idempotency-key-invalid");
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCountForKey(key));
    }

    @Test
    void quotedAndBareSpellingsOfAKeyAreOneKey() {
        HttpResponse<String> quoted = api.post("alice", debits(), "\"" + key + "\"", "{\"amount\": 100}");
        HttpResponse<String> bare = api.post("alice", debits(), key, "{\"amount\": 100}");

        assertEquals(200, quoted.statusCode(), quoted.body());
        assertEquals("true", bare.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(account));
    }

    @Test
    void duplicateWaitsOnlyUpToTheLockTimeoutThenGets409AndLaterReplays() throws Exception {
        String gate = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> slow = Api.sendLater(heldDebit(key, gate, false));
        api.awaitAtGate(gate, 1);

        // The first holds its claim at the gate until the duplicate has given up waiting.
        HttpResponse<String> duplicate = api.post("alice", slowPath(), key, "{\"amount\": 100}");
        api.openGate(gate);

        assertProblem(duplicate, 409, "request-in-progress");
        // It waited at the server, and its retry will wait there again: a short hint, jittered by the key, and no
        // SDK hints or Stripe member, which are off by default.
        long retryAfterMs =
                Long.parseLong(duplicate.headers().firstValue("retry-after-ms").orElseThrow());
        assertTrue(retryAfterMs >= 1000 && retryAfterMs <= 1250, "retry-after-ms " + retryAfterMs);
        assertEquals(
                Long.toString((retryAfterMs + 999) / 1000),
                duplicate.headers().firstValue("Retry-After").orElseThrow(),
                "whole seconds, rounded up");
        assertTrue(duplicate.headers().firstValue("x-should-retry").isEmpty(), "retry-hints is off by default");
        assertFalse(duplicate.body().contains("\"error\""), duplicate.body());
        HttpResponse<String> original = slow.get();
        assertEquals(200, original.statusCode(), original.body());
        HttpResponse<String> retry = api.post("alice", slowPath(), key, "{\"amount\": 100}");
        assertEquals(original.body(), retry.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(account));
        assertEquals(0, Database.sessionsIdleInTransaction(), Database::idleInTransactionStatements);
    }

    @Test
    void duplicateExecutesOnceWhenTheRequestItWaitedForRollsBack() throws Exception {
        String gate = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> failing = Api.sendLater(heldDebit(key, gate, true));
        api.awaitAtGate(gate, 1);
        // Sent once the first holds the claim; on one node a duplicate waits in memory, where the test cannot see
        // it, so it may still be on its way when the gate opens: it executes once either way, never before.
        CompletableFuture<HttpResponse<String>> waiting =
                Api.later(() -> api.post("alice", slowPath(), key, "{\"amount\": 100}"));
        api.openGate(gate);

        HttpResponse<String> duplicate = waiting.get();
        assertEquals(500, failing.get().statusCode(), failing.get().body());
        assertEquals(200, duplicate.statusCode(), duplicate.body());
        assertEquals("{\"balance\":900}", duplicate.body());
        assertTrue(duplicate.headers().firstValue("Idempotent-Replayed").isEmpty(), "it executed, not replayed");
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCount("alice", "slow:v1", key));
    }

    @Test
    void bodyOverTheLimitWithContentLengthGets413AndStoresNothing() {
        HttpResponse<String> refused = api.post("alice", debits(), key, largeDebitBody());

        assertProblem(refused, 413, "request-too-large");
        assertEquals(0, Database.recordCountForKey(key));
        assertEquals(1000, Database.balance(account));
    }

    /** Larger than the container's own request limit (WildFly's max-post-size, 10 MiB by default) too. */
    @Test
    void bodyOverTheContainersOwnLimitStillGetsTheFilters413() {
        String huge = "{\"amount\": 100, \"memo\": \"" + "m".repeat(11 * 1024 * 1024) + "\"}";

        HttpResponse<String> refused = api.post("alice", debits(), key, huge);

        assertProblem(refused, 413, "request-too-large");
        assertEquals(0, Database.recordCountForKey(key));
        assertEquals(1000, Database.balance(account));
    }

    @Test
    void malformedJsonIsTheApplications400ProblemAndLeavesTheKeyFree() {
        HttpResponse<String> refused = api.post("alice", debits(), key, "{\"amount\": 100");

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(
                "application/problem+json",
                refused.headers().firstValue("Content-Type").orElse(""));
        assertEquals(
                "urn:dev.idempotency:sample:problem:malformed-json",
                Api.json(refused).get("type").asText());
        assertEquals(0, Database.recordCountForKey(key));
        assertEquals(200, api.post("alice", debits(), key, "{\"amount\": 100}").statusCode());
        assertEquals(900, Database.balance(account));
    }

    @Test
    void chunkedBodyOverTheLimitGets413AndStoresNothing() {
        byte[] body = largeDebitBody().getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> refused = Api.send(api.request("alice", debits())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                .build());

        assertProblem(refused, 413, "request-too-large");
        assertEquals(0, Database.recordCountForKey(key));
        assertEquals(1000, Database.balance(account));
    }

    @Test
    void responseOverTheStorableLimitRollsBackAndIsNeverStoredTruncated() {
        HttpResponse<String> refused =
                api.post("alice", "api/test/accounts/" + account + "/large", key, "{\"amount\": 100, \"size\": 10000}");

        assertProblem(refused, 500, "response-too-large");
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCountForKey(key));
    }

    @Test
    void asynchronousResponseIsRefusedWithAProblemNamingTheOperation() {
        HttpResponse<String> refused = api.post("alice", "api/test-async", key, "{}");

        assertProblem(refused, 500, "asynchronous-response");
        assertTrue(Api.json(refused).get("detail").asText().contains("async:v1"), refused.body());
        assertEquals(0, Database.recordCountForKey(key));
    }

    @Test
    void replayCarriesOnlyAllowlistedHeadersAndNeverTheCookie() {
        String path = "api/test/accounts/" + account + "/cookie";
        HttpResponse<String> first = api.post("alice", path, key, "{\"amount\": 100}");
        HttpResponse<String> replay = api.post("alice", path, key, "{\"amount\": 100}");

        assertTrue(first.headers().firstValue("Set-Cookie").isPresent(), "the first caller gets its cookie");
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertTrue(
                replay.headers().firstValue("Set-Cookie").isEmpty(),
                replay.headers().toString());
        assertTrue(
                replay.headers().firstValue("X-Request-Trace").isEmpty(),
                replay.headers().toString());
        assertEquals(
                "application/json", replay.headers().firstValue("Content-Type").orElseThrow());
        assertFalse(Database.record("alice", "cookie:v1", key)
                .orElseThrow()
                .headers()
                .contains("secret"));
    }

    @Test
    void replayHasTheExactContentLengthAndNoTransferEncoding() {
        api.post("alice", debits(), key, "{\"amount\": 100}");
        HttpResponse<String> replay = api.post("alice", debits(), key, "{\"amount\": 100}");

        assertEquals(
                String.valueOf(replay.body().getBytes(StandardCharsets.UTF_8).length),
                replay.headers().firstValue("Content-Length").orElseThrow());
        assertTrue(replay.headers().firstValue("Transfer-Encoding").isEmpty());
    }

    @Test
    void safeMethodsAreNeverClaimedEvenWithAKey() {
        HttpResponse<String> read = Api.send(api.request("alice", "api/accounts/" + account)
                .header("Idempotency-Key", key)
                .GET()
                .build());

        assertEquals(200, read.statusCode(), read.body());
        assertEquals(0, Database.recordCountForKey(key));
    }

    @Test
    void encodedOrSlashSuffixedSpellingOfThePathIsTheSameOperationAndRequest() {
        HttpResponse<String> plain = api.post("alice", debits(), key, "{\"amount\": 100}");
        HttpResponse<String> variant =
                api.post("alice", "api/accounts/" + account + "/%64ebits/", key, "{\"amount\": 100}");

        assertEquals(200, plain.statusCode(), plain.body());
        assertEquals(200, variant.statusCode(), variant.body());
        assertEquals("true", variant.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(account));
    }

    @Test
    void formBodiesAreOneRequestWhateverTheirPairOrderAndTheApplicationStillReadsThem() {
        HttpResponse<String> first = postForm("b=2&a=1&a=0");
        HttpResponse<String> reordered = postForm("a=0&a=1&b=2");
        HttpResponse<String> different = postForm("a=0&a=1&b=3");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("a=1|0;b=2;", first.body(), "the application read the parameters the filter had buffered");
        assertEquals(
                "true", reordered.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(first.body(), reordered.body());
        assertProblem(different, 422, "idempotency-key-reused");
    }

    private HttpResponse<String> postForm(String form) {
        return Api.send(api.request("alice", "api/test-form")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build());
    }

    /** A debit through the slow endpoint that holds its claim at {@code gate}, then answers 200 or fails with 500. */
    private HttpRequest heldDebit(String key, String gate, boolean fail) {
        return api.request("alice", slowPath())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .header("X-Test-Gate", gate)
                .header("X-Test-Fail", Boolean.toString(fail))
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 100}"))
                .build();
    }

    private static String largeDebitBody() {
        return "{\"amount\": 100, \"memo\": \"" + "m".repeat(10_000) + "\"}";
    }

    private String debits() {
        return "api/accounts/" + account + "/debits";
    }

    private String slowPath() {
        return "api/test/accounts/" + account + "/slow";
    }

    private static void assertProblem(HttpResponse<String> response, int status, String typeSuffix) {
        assertEquals(status, response.statusCode(), response.body());
        assertEquals(
                "application/problem+json",
                response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(
                "urn:dev.idempotency:problem:" + typeSuffix,
                Api.json(response).get("type").asText());
    }
}
