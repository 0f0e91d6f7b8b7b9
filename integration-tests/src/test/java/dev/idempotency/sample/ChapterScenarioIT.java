package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The source chapter's script, as-is, over HTTP on the demo's account 1 (alice, balance 1000). */
@Tag("core")
@RunAsClient
class ChapterScenarioIT extends SampleContainerTest {
    private static final String DEBITS = "api/accounts/1/debits";

    @Test
    void debitsOnceThenReplaysThenRejectsADifferentAmountUnderTheSameKey() throws SQLException {
        Api api = new Api(base);

        HttpResponse<String> first = api.post("alice", DEBITS, "checkout-42", "{\"amount\": 100}");
        HttpResponse<String> again = api.post("alice", DEBITS, "checkout-42", "{\"amount\": 100}");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("{\"balance\":900}", first.body());
        assertTrue(first.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(200, again.statusCode(), again.body());
        assertEquals("{\"balance\":900}", again.body());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(1));

        HttpResponse<String> different = api.post("alice", DEBITS, "checkout-42", "{\"amount\": 101}");

        assertEquals(422, different.statusCode(), different.body());
        assertEquals(
                "application/problem+json",
                different.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(
                "urn:dev.idempotency:problem:idempotency-key-reused",
                Api.json(different).get("type").asText());
        // The differing field, machine-readable: a JSON pointer into the canonical request.
        assertEquals(
                "[\"/body/json/amount\"]", Api.json(different).get("mismatches").toString());
        assertEquals(900, Database.balance(1));

        // The primary key itself refuses a second record with the same identity (SQLSTATE 23505).
        SQLException duplicate = assertThrows(
                SQLException.class,
                () -> Database.execute("INSERT INTO request_result (scope, operation, request_key, request,"
                        + " created_at, expires_at) VALUES ('alice', 'debit:v1', 'checkout-42', '{}', now(), now())"));
        assertEquals("23505", duplicate.getSQLState());
        assertEquals(1, Database.recordCount("alice", "debit:v1", "checkout-42"));
        Database.StoredRecord stored =
                Database.record("alice", "debit:v1", "checkout-42").orElseThrow();
        assertEquals(200, stored.status());
        assertEquals("{\"balance\":900}", stored.body());
    }
}
