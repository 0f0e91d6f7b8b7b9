package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Failures leave no half-states: neither the effect nor the record survives, and the key stays free. */
@Tag("core")
@RunAsClient
class FailureIT extends SampleContainerTest {
    Api api;
    String key;
    long account;

    @BeforeAll
    static void createDeferredConstraint() throws SQLException {
        Database.execute("CREATE TABLE IF NOT EXISTS commit_probe_parent (id bigint PRIMARY KEY)");
        Database.execute("CREATE TABLE IF NOT EXISTS commit_probe (id bigserial PRIMARY KEY, parent_id bigint NOT"
                + " NULL REFERENCES commit_probe_parent (id) DEFERRABLE INITIALLY DEFERRED)");
    }

    @BeforeEach
    void freshAccountAndKey() {
        api = new Api(base);
        key = UUID.randomUUID().toString();
        account = api.openAccount("alice", 1000);
    }

    @Test
    void exceptionAfterTheDebitWasWrittenCommitsNeitherEffectNorRecord() {
        HttpResponse<String> failed = post("explode:v1", "explode");

        assertEquals(500, failed.statusCode(), failed.body());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCount("alice", "explode:v1", key));

        HttpResponse<String> retry = post("explode:v1", "explode");
        assertEquals(500, retry.statusCode(), "the retry executes again, it is not a replay");
        assertTrue(retry.headers().firstValue("Idempotent-Replayed").isEmpty());
    }

    @Test
    void commitFailureSendsA5xxProblemAndNeverTheSuccessBody() {
        HttpResponse<String> failed = post("commit-failure:v1", "commit-failure");

        assertEquals(503, failed.statusCode(), failed.body());
        assertEquals(
                "application/problem+json",
                failed.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(
                "urn:dev.idempotency:problem:commit-failed",
                Api.json(failed).get("type").asText());
        assertTrue(Api.json(failed).get("detail").asText().contains("same key is safe"), failed.body());
        assertFalse(failed.body().contains("balance"), failed.body());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCount("alice", "commit-failure:v1", key));
    }

    @Test
    void rollbackOnlyTransactionAnswering200IsNotSentAndStoresNothing() {
        HttpResponse<String> failed = post("rollback-only:v1", "rollback-only");

        assertEquals(500, failed.statusCode(), failed.body());
        assertEquals(
                "urn:dev.idempotency:problem:application-failed",
                Api.json(failed).get("type").asText());
        assertFalse(failed.body().contains("balance"), failed.body());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCount("alice", "rollback-only:v1", key));
    }

    @Test
    void unauthenticatedRequestWithKeyIsRefusedWith401AndNeverSharesAScope() {
        HttpResponse<String> refused = Api.send(api.request(null, "public/echo")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\": 1}"))
                .build());

        assertEquals(401, refused.statusCode(), refused.body());
        assertEquals(
                "urn:dev.idempotency:problem:authentication-required",
                Api.json(refused).get("type").asText());
        assertEquals(0, Database.recordCountForPath("/public/echo"));
    }

    @Test
    void malformedKeyIsRefusedWith400BeforeAnyEffect() {
        HttpResponse<String> refused =
                api.post("alice", "api/accounts/" + account + "/debits", "x".repeat(256), "{\"amount\": 100}");

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(
                "urn:dev.idempotency:problem:idempotency-key-invalid",
                Api.json(refused).get("type").asText());
        assertEquals(1000, Database.balance(account));
    }

    @Test
    void serializationFailureInsideTheApplicationIsARetryable503AndKeepsNothing() {
        HttpResponse<String> conflict = Api.send(api.request("alice", "api/test-conflict?account=" + account)
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());

        assertEquals(503, conflict.statusCode(), conflict.body());
        assertEquals(
                "urn:dev.idempotency:problem:transaction-conflict",
                Api.json(conflict).get("type").asText());
        assertTrue(conflict.headers().firstValue("Retry-After").isPresent());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCountForKey(key));
    }

    private HttpResponse<String> post(String operation, String fault) {
        return api.post("alice", "api/test/accounts/" + account + "/" + fault, key, "{\"amount\": 100}");
    }
}
