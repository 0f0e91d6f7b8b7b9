package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Test;

/**
 * Erasure on request: the operator deletes every record of one caller through the admin servlet. Other
 * callers' records stay; the erased caller's retries run again, as documented.
 */
@RunAsClient
class ErasureIT extends SampleContainerTest {

    @Test
    void erasingAScopeDeletesEveryRecordOfThatCallerAndNoOtherAndItsRetriesRunAgain() {
        Api api = new Api(base);
        long alices = api.openAccount("alice", 1000);
        long bobs = api.openAccount("bob", 1000);
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        String bobsKey = UUID.randomUUID().toString();
        assertEquals(200, debit(api, "alice", alices, first).statusCode());
        assertEquals(200, debit(api, "alice", alices, second).statusCode());
        assertEquals(200, debit(api, "bob", bobs, bobsKey).statusCode());

        HttpResponse<String> erased = erase(api, "operator", "?scope=alice");

        assertEquals(200, erased.statusCode(), erased.body());
        assertEquals("alice", Api.json(erased).get("scope").asText());
        assertTrue(Api.json(erased).get("erased").asLong() >= 2, erased.body());
        assertEquals(0, Database.count("SELECT count(*) FROM request_result WHERE scope = 'alice'"));
        assertEquals(1, Database.recordCount("bob", "debit:v1", bobsKey), "another caller's records stay");
        HttpResponse<String> retry = debit(api, "alice", alices, first);
        assertTrue(retry.headers().firstValue("Idempotent-Replayed").isEmpty(), "the erased record is not replayed");
        assertEquals(700, Database.balance(alices), "the retry ran again: the documented consequence");
        HttpResponse<String> bobsRetry = debit(api, "bob", bobs, bobsKey);
        assertEquals(
                "true", bobsRetry.headers().firstValue("Idempotent-Replayed").orElse(""));
    }

    @Test
    void erasureNeedsAScopeAndAnOperator() {
        Api api = new Api(base);

        HttpResponse<String> withoutScope = erase(api, "operator", "");
        HttpResponse<String> byACustomer = erase(api, "alice", "?scope=bob");

        assertEquals(400, withoutScope.statusCode(), withoutScope.body());
        assertEquals(
                "urn:dev.idempotency:problem:scope-required",
                Api.json(withoutScope).get("type").asText());
        assertEquals(403, byACustomer.statusCode(), "the container's security constraint decides first");
    }

    private static HttpResponse<String> erase(Api api, String user, String query) {
        return Api.send(api.request(user, "admin/idempotency" + query).DELETE().build());
    }

    private static HttpResponse<String> debit(Api api, String user, long account, String key) {
        return api.post(user, "api/accounts/" + account + "/debits", key, "{\"amount\": 100}");
    }
}
