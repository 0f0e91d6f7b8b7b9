package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.sample.support.TestServer;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Stored data protected at rest: {@code debit:v1} marked {@code encrypted}, in three deployments of the
 * sample that share the database and differ only in {@code encryption-keys}: key {@code a} alone, then
 * {@code b} first with {@code a} kept (a rotation), then {@code b} alone (the old key removed). The records
 * are read straight from the table.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EncryptionIT {
    private static final String KEY_A =
            Base64.getEncoder().encodeToString("a-key-of-thirty-two-bytes-------".getBytes());
    private static final String KEY_B =
            Base64.getEncoder().encodeToString("b-key-of-thirty-two-bytes-------".getBytes());

    @Deployment(name = "sealing-a", testable = false)
    static WebArchive sealingWithA() throws IOException {
        return encrypted("sealing-a.war", "a=" + KEY_A);
    }

    @Deployment(name = "rotated", testable = false)
    static WebArchive rotatedToB() throws IOException {
        return encrypted("rotated.war", "b=" + KEY_B + ", a=" + KEY_A);
    }

    @Deployment(name = "b-only", testable = false)
    static WebArchive onlyB() throws IOException {
        return encrypted("b-only.war", "b=" + KEY_B);
    }

    private final Api sealingA = api("sealing-a");
    private final Api rotated = api("rotated");
    private final Api onlyB = api("b-only");

    @Test
    void theTableHoldsNoPlaintextAndTheRecordStillReplaysAndRefusesAChangedRequest() {
        long account = sealingA.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first = debit(sealingA, account, key, 100);
        HttpResponse<String> replay = debit(sealingA, account, key, 100);
        HttpResponse<String> changed = debit(sealingA, account, key, 101);

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("{\"balance\":900}", first.body());
        assertEquals(1, sealedUnder("a", key), "the stored request is sealed under key a");
        assertEquals(0, plaintextRows(key), "neither the request nor the response body is readable in the table");
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(first.body(), replay.body());
        assertEquals(422, changed.statusCode(), changed.body());
        assertTrue(changed.body().contains("/body/json/amount"), changed.body());
        assertEquals(900, Database.balance(account));
    }

    @Test
    void rotationKeepsOldRecordsReplayableAndARemovedKeyIsNeverReplayedNorRunAgain() {
        long account = sealingA.openAccount("alice", 1000);
        String oldKey = UUID.randomUUID().toString();
        String newKey = UUID.randomUUID().toString();
        assertEquals(200, debit(sealingA, account, oldKey, 100).statusCode());

        HttpResponse<String> oldReplayedAfterRotation = debit(rotated, account, oldKey, 100);
        HttpResponse<String> newUnderB = debit(rotated, account, newKey, 100);
        HttpResponse<String> newReplayedWithBOnly = debit(onlyB, account, newKey, 100);
        HttpResponse<String> oldWithoutItsKey = debit(onlyB, account, oldKey, 100);

        assertEquals(
                "true",
                oldReplayedAfterRotation
                        .headers()
                        .firstValue("Idempotent-Replayed")
                        .orElse(""));
        assertEquals("{\"balance\":900}", oldReplayedAfterRotation.body());
        assertEquals(200, newUnderB.statusCode(), newUnderB.body());
        assertEquals(1, sealedUnder("b", newKey), "new records are sealed under the first key");
        assertEquals(
                "true",
                newReplayedWithBOnly.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertUnreadableProblem(oldWithoutItsKey);
        assertEquals(800, Database.balance(account), "two debits, none of them run twice");
    }

    @Test
    void aTamperedRecordIsRefusedAndNotRunAgain() throws Exception {
        long account = sealingA.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        assertEquals(200, debit(sealingA, account, key, 100).statusCode());

        Database.execute(
                "UPDATE request_result SET response_body = set_byte(response_body, 20, get_byte(response_body, 20) # 1)"
                        + " WHERE request_key = ?",
                key);
        HttpResponse<String> retry = debit(sealingA, account, key, 100);

        assertUnreadableProblem(retry);
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCountForKey(key));
    }

    private static void assertUnreadableProblem(HttpResponse<String> response) {
        assertEquals(500, response.statusCode(), response.body());
        assertEquals(
                "urn:dev.idempotency:problem:stored-response-unreadable",
                Api.json(response).get("type").asText());
        assertTrue(!response.body().contains("balance"), response.body());
    }

    private static long sealedUnder(String keyId, String key) {
        return Database.count("SELECT count(*) FROM request_result WHERE request_key = '" + key
                + "' AND request LIKE 'enc1:" + keyId + ":%'");
    }

    private static long plaintextRows(String key) {
        return Database.count("SELECT count(*) FROM request_result WHERE request_key = '" + key + "' AND"
                + " (request LIKE '%amount%' OR position('balance'::bytea IN response_body) > 0)");
    }

    private static HttpResponse<String> debit(Api api, long account, String key, long amount) {
        return api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": " + amount + "}");
    }

    /** The test deployment with debit:v1 encrypted under these keys. */
    private static WebArchive encrypted(String archiveName, String keys) throws IOException {
        String settings = Files.readString(Path.of("src/test/resources/test-idempotency.properties"))
                .replace("= debit:v1 ;", "= debit:v1 encrypted ;");
        if (!settings.contains("debit:v1 encrypted")) {
            throw new IllegalStateException("the test configuration no longer lists debit:v1 as expected");
        }
        return SampleDeployment.create(archiveName)
                .addAsWebInfResource(
                        new StringAsset(settings + "encryption-keys = " + keys + "\n"), "idempotency.properties");
    }

    private static Api api(String context) {
        try {
            return new Api(TestServer.context(context).toURL());
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
