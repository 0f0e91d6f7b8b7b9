package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Expand and contract on the sample's debit:v1: the rollout modes, switched at run time through the admin
 * servlet (or straight in the table, as another node would), with the keyless telemetry an operator
 * watches. The test deployment refreshes modes every second.
 */
@Tag("core")
@RunAsClient
class RolloutIT extends SampleContainerTest {
    private static final String ADMIN = "admin/idempotency";

    Api api;
    long account;
    long expectedBalance;

    @BeforeEach
    void debitOptionalAndAFreshAccount() {
        api = new Api(base);
        switchTo("OPTIONAL"); // through the admin servlet, so this node's cache is fresh at once
        expectedBalance = 10_000;
        account = api.openAccount("alice", expectedBalance);
    }

    @AfterEach
    void debitBackToOptional() {
        switchTo("OPTIONAL");
    }

    @Test
    void walksOffOptionalRequiredBackToOptionalDrainAndOffWithoutLosingAReplay() throws SQLException {
        switchTo("OFF");
        assertExecutes(keyless(), false);
        String unprotected = newKey();
        assertExecutes(keyed(unprotected, 100), false);
        assertExecutes(keyed(unprotected, 100), false); // OFF: the same key runs twice
        assertEquals(0, Database.recordCountForKey(unprotected));

        switchTo("OPTIONAL");
        HttpResponse<String> deprecated = keyless();
        assertExecutes(deprecated, false);
        assertTrue(deprecated.headers().firstValue("Deprecation").orElseThrow().startsWith("@"));
        assertEquals(
                "Mon, 01 Mar 2027 00:00:00 GMT",
                deprecated.headers().firstValue("Sunset").orElseThrow());
        assertEquals(
                "</sample/keys.html>; rel=\"describedby\"",
                deprecated.headers().firstValue("Link").orElseThrow());
        String optionalKey = newKey();
        assertExecutes(keyed(optionalKey, 100), false);
        assertReplayed(keyed(optionalKey, 100));

        switchTo("REQUIRED");
        HttpResponse<String> refused = keyless();
        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(
                "urn:dev.idempotency:problem:idempotency-key-required",
                Api.json(refused).get("type").asText());
        assertEquals(expectedBalance, Database.balance(account));
        String requiredKey = newKey();
        assertExecutes(keyed(requiredKey, 100), false);

        switchTo("OPTIONAL");
        assertReplayed(keyed(requiredKey, 100));
        assertExecutes(keyless(), false);

        switchTo("DRAIN");
        assertReplayed(keyed(requiredKey, 100));
        assertReplayed(keyed(optionalKey, 100));
        HttpResponse<String> mismatch = keyed(requiredKey, 101);
        assertEquals(422, mismatch.statusCode(), mismatch.body());
        String drainKey = newKey();
        assertExecutes(keyed(drainKey, 100), false);
        assertExecutes(keyed(drainKey, 100), false); // DRAIN records no new keys
        assertEquals(0, Database.recordCountForKey(drainKey));
        HttpResponse<String> keylessUnderDrain = keyless();
        assertExecutes(keylessUnderDrain, false);
        assertTrue(keylessUnderDrain.headers().firstValue("Deprecation").isEmpty());

        switchTo("OFF");
        // Why DRAIN must outlive the retention window: OFF no longer honours the stored record.
        assertExecutes(keyed(requiredKey, 100), false);

        assertEquals(expectedBalance, Database.balance(account));
        assertEquals(
                6,
                Database.count("SELECT count(*) FROM idempotency_rollout_history WHERE operation ="
                        + " 'debit:v1' AND changed_by = 'operator' AND id > (SELECT coalesce(max(id), 0) - 6 FROM"
                        + " idempotency_rollout_history)"));
    }

    @Test
    void switchMadeInTheTableByAnotherNodeIsSeenAfterTheRefreshWithoutRedeploy() throws Exception {
        assertExecutes(keyless(), false); // loads this node's cache: OPTIONAL by default

        Database.execute("UPDATE idempotency_rollout SET mode = 'REQUIRED', changed_by = 'another-node',"
                + " changed_at = now() WHERE operation = 'debit:v1'");
        awaitKeylessRefused(); // rollout-refresh is PT1S in the test deployment

        HttpResponse<String> refused = keyless();
        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(expectedBalance, Database.balance(account));
        JsonNode debit = operation(Api.json(api.get("operator", ADMIN)), "debit:v1");
        assertEquals("REQUIRED", debit.get("mode").asText());
        assertEquals("another-node", debit.get("changedBy").asText());
    }

    @Test
    void requiredRejectsKeylessRequestsWith400AndTheBalanceIsUnchanged() {
        switchTo("REQUIRED");

        HttpResponse<String> refused = keyless();

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(
                "application/problem+json",
                refused.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(Api.json(refused).get("type").asText().endsWith("idempotency-key-required"));
        assertEquals(expectedBalance, Database.balance(account));
    }

    @Test
    void keylessCountsPerOperationAndClientAreExact() {
        long bobs = api.openAccount("bob", 1000);
        JsonNode before =
                operation(Api.json(api.get("operator", ADMIN)), "debit:v1").get("keyless");

        for (int i = 0; i < 3; i++) {
            Api.send(debit("alice", account, null, "test-client/1.0 (counting)"));
        }
        for (int i = 0; i < 2; i++) {
            Api.send(debit("bob", bobs, null, "other-client/2.0"));
        }
        Api.send(debit("alice", account, newKey(), "test-client/1.0 (counting)")); // keyed: not counted

        JsonNode after =
                operation(Api.json(api.get("operator", ADMIN)), "debit:v1").get("keyless");
        assertEquals(before.get("total").asLong() + 5, after.get("total").asLong());
        assertEquals(count(before, "alice", "test-client") + 3, count(after, "alice", "test-client"));
        assertEquals(count(before, "bob", "other-client") + 2, count(after, "bob", "other-client"));
    }

    @Test
    void adminRefusesAnUnknownModeAndAnUnknownOperationWithProblems() {
        HttpResponse<String> badMode = api.put("operator", ADMIN + "?operation=debit:v1", "{\"mode\": \"SOMETIMES\"}");
        HttpResponse<String> badOperation = api.put("operator", ADMIN + "?operation=credit:v9", "{\"mode\": \"OFF\"}");
        HttpResponse<String> notAnOperator = api.put("alice", ADMIN + "?operation=debit:v1", "{\"mode\": \"OFF\"}");

        assertEquals(400, badMode.statusCode(), badMode.body());
        assertEquals(
                "urn:dev.idempotency:problem:rollout-mode-invalid",
                Api.json(badMode).get("type").asText());
        assertEquals(404, badOperation.statusCode(), badOperation.body());
        assertEquals(
                "urn:dev.idempotency:problem:operation-unknown",
                Api.json(badOperation).get("type").asText());
        assertEquals(403, notAnOperator.statusCode());
        assertEquals(
                "OPTIONAL",
                operation(Api.json(api.get("operator", ADMIN)), "debit:v1")
                        .get("mode")
                        .asText());
    }

    private void switchTo(String mode) {
        HttpResponse<String> switched =
                api.put("operator", ADMIN + "?operation=debit:v1", "{\"mode\": \"" + mode + "\"}");
        assertEquals(200, switched.statusCode(), switched.body());
        assertEquals(mode, Api.json(switched).get("mode").asText());
    }

    /**
     * Waits until this node's cache has the table's REQUIRED, asking with a keyless debit larger than the balance:
     * under OPTIONAL the application refuses it (409, nothing debited), under REQUIRED the filter does (400).
     */
    private void awaitKeylessRefused() throws InterruptedException {
        long deadline = System.nanoTime() + java.time.Duration.ofMinutes(1).toNanos();
        while (keyed(null, 1_000_000).statusCode() != 400) {
            assertTrue(System.nanoTime() < deadline, "the switch in the table never reached this node");
            Thread.sleep(50);
        }
    }

    private HttpResponse<String> keyless() {
        return keyed(null, 100);
    }

    private HttpResponse<String> keyed(String key, long amount) {
        return api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": " + amount + "}");
    }

    private HttpRequest debit(String user, long accountId, String key, String userAgent) {
        HttpRequest.Builder request = api.request(user, "api/accounts/" + accountId + "/debits")
                .header("Content-Type", "application/json")
                .header("User-Agent", userAgent)
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 1}"));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.build();
    }

    /** Asserts a debit of 100 ran (not a replay) and tracks the balance it must leave. */
    private void assertExecutes(HttpResponse<String> response, boolean replayed) {
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                replayed, response.headers().firstValue("Idempotent-Replayed").isPresent());
        expectedBalance -= 100;
        assertEquals("{\"balance\":" + expectedBalance + "}", response.body());
    }

    private static void assertReplayed(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        assertEquals(
                "true", response.headers().firstValue("Idempotent-Replayed").orElseThrow());
    }

    private static JsonNode operation(JsonNode admin, String contract) {
        for (JsonNode operation : admin.get("operations")) {
            if (operation.get("operation").asText().equals(contract)) {
                return operation;
            }
        }
        throw new AssertionError(contract + " not in " + admin);
    }

    private static long count(JsonNode keyless, String principal, String userAgent) {
        for (JsonNode client : keyless.get("clients")) {
            if (client.get("principal").asText().equals(principal)
                    && client.get("userAgent").asText().equals(userAgent)) {
                return client.get("count").asLong();
            }
        }
        return 0;
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }
}
