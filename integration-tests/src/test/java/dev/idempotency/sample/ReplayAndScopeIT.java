package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Replay, mismatch, refusals, scope and canonical identity, each on a fresh account and a fresh key. */
@Tag("core")
@RunAsClient
class ReplayAndScopeIT extends SampleContainerTest {
    Api api;
    String key;

    @BeforeEach
    void freshKey() {
        api = new Api(base);
        key = UUID.randomUUID().toString();
    }

    @Test
    void replaysStoredResponseWhenKeyAndBodyMatch() {
        long account = api.openAccount("alice", 1000);

        HttpResponse<String> first = api.post("alice", debits(account), key, "{\"amount\": 100}");
        HttpResponse<String> retry = api.post("alice", debits(account), key, "{\"amount\": 100}");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("{\"balance\":900}", first.body());
        assertTrue(first.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals(first.body(), retry.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(first.headers().firstValue("Content-Type"), retry.headers().firstValue("Content-Type"));
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCount("alice", "debit:v1", key));
    }

    @Test
    void rejectsKeyReuseWithDifferentAmountWith422BeforeAnyEffect() {
        long account = api.openAccount("alice", 1000);
        api.post("alice", debits(account), key, "{\"amount\": 100}");
        Database.StoredRecord before = Database.record("alice", "debit:v1", key).orElseThrow();

        HttpResponse<String> reused = api.post("alice", debits(account), key, "{\"amount\": 101}");

        assertEquals(422, reused.statusCode(), reused.body());
        assertEquals(
                "application/problem+json",
                reused.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(
                "urn:dev.idempotency:problem:idempotency-key-reused",
                Api.json(reused).get("type").asText());
        assertTrue(Api.json(reused).get("detail").asText().contains("/body/json/amount"), reused.body());
        assertEquals(900, Database.balance(account));
        assertEquals(before, Database.record("alice", "debit:v1", key).orElseThrow());
    }

    @Test
    void insufficientBalanceStoresNothingAndLeavesTheKeyFree() {
        long account = api.openAccount("alice", 50);

        HttpResponse<String> refused = api.post("alice", debits(account), key, "{\"amount\": 100}");

        assertEquals(409, refused.statusCode(), refused.body());
        assertTrue(Api.json(refused).get("type").asText().endsWith("insufficient-balance"), refused.body());
        assertEquals(0, Database.recordCount("alice", "debit:v1", key));

        HttpResponse<String> later = api.post("alice", debits(account), key, "{\"amount\": 30}");

        assertEquals(200, later.statusCode(), later.body());
        assertEquals("{\"balance\":20}", later.body());
        assertEquals(20, Database.balance(account));
    }

    @Test
    void invalidAmountIsRefusedAndNotStored() {
        long account = api.openAccount("alice", 1000);

        HttpResponse<String> refused = api.post("alice", debits(account), key, "{\"amount\": -5}");

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(0, Database.recordCount("alice", "debit:v1", key));
        assertEquals(1000, Database.balance(account));
    }

    @Test
    void sameKeyFromAnotherCallerExecutesIndependently() {
        long alices = api.openAccount("alice", 1000);
        long bobs = api.openAccount("bob", 500);

        HttpResponse<String> alice = api.post("alice", debits(alices), key, "{\"amount\": 100}");
        HttpResponse<String> bob = api.post("bob", debits(bobs), key, "{\"amount\": 100}");

        assertEquals("{\"balance\":900}", alice.body());
        assertEquals("{\"balance\":400}", bob.body());
        assertTrue(bob.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(400, Database.balance(bobs));
        assertEquals(1, Database.recordCount("alice", "debit:v1", key));
        assertEquals(1, Database.recordCount("bob", "debit:v1", key));
    }

    @Test
    void sameKeyOnAnotherOperationExecutesIndependently() {
        HttpResponse<String> opened = api.post("alice", "api/accounts", key, "{\"balance\": 1000}");
        long account = Api.json(opened).get("id").asLong();

        HttpResponse<String> debited = api.post("alice", debits(account), key, "{\"amount\": 100}");

        assertEquals(201, opened.statusCode(), opened.body());
        assertEquals(200, debited.statusCode(), debited.body());
        assertTrue(debited.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCount("alice", "open-account:v1", key));
        assertEquals(1, Database.recordCount("alice", "debit:v1", key));
    }

    @Test
    void replayOfCreationKeepsItsLocationAndCreatesNoSecondAccount() {
        HttpResponse<String> opened = api.post("alice", "api/accounts", key, "{\"balance\": 70}");
        HttpResponse<String> retried = api.post("alice", "api/accounts", key, "{\"balance\": 70}");

        assertEquals(201, retried.statusCode(), retried.body());
        assertEquals(opened.body(), retried.body());
        assertEquals(
                opened.headers().firstValue("Location").orElseThrow(),
                retried.headers().firstValue("Location").orElseThrow());
        assertEquals("true", retried.headers().firstValue("Idempotent-Replayed").orElseThrow());
    }

    @Test
    void memberOrderAndWhitespaceDoNotChangeIdentity() {
        long account = api.openAccount("alice", 1000);

        HttpResponse<String> first = api.post("alice", debits(account), key, "{\"amount\":100,\"memo\":\"a\"}");
        HttpResponse<String> reordered =
                api.post("alice", debits(account), key, "{ \"memo\":\"a\",\n  \"amount\":100 }");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals(200, reordered.statusCode(), reordered.body());
        assertEquals(
                "true", reordered.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(account));
    }

    @Test
    void keylessRequestPassesThroughExecutesAndStoresNothing() {
        long account = api.openAccount("alice", 1000);

        HttpResponse<String> first = api.post("alice", debits(account), null, "{\"amount\": 100}");
        HttpResponse<String> second = api.post("alice", debits(account), null, "{\"amount\": 100}");

        assertEquals("{\"balance\":900}", first.body());
        assertEquals("{\"balance\":800}", second.body());
        assertTrue(second.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(800, Database.balance(account));
        assertEquals(0, Database.recordCountForPath("/api/accounts/" + account + "/debits"));
    }

    private static String debits(long account) {
        return "api/accounts/" + account + "/debits";
    }
}
