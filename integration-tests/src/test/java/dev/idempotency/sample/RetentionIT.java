package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Retention: each record carries its expiry, the purge (every second in this deployment) deletes only
 * expired records, and a retry racing the purge gets one of the two documented outcomes, never an error.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RetentionIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws IOException {
        return SampleDeployment.withExtraSettings("sample.war", "purge-interval = PT1S\npurge-batch-size = 2");
    }

    @ArquillianResource
    URL base;

    @Test
    void purgeDeletesExpiredRecordsAndNeverAnUnexpiredOne() throws Exception {
        String expired = UUID.randomUUID().toString();
        String live = UUID.randomUUID().toString();
        for (int i = 0; i < 5; i++) { // more than one batch of two
            insertRecord(expired + "-" + i, "now() - interval '1 minute'");
        }
        insertRecord(live, "now() + interval '1 hour'");

        long deadline = System.nanoTime() + 60_000_000_000L;
        while (Database.count("SELECT count(*) FROM request_result WHERE request_key LIKE '" + expired + "%'") > 0
                && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }

        assertEquals(
                0, Database.count("SELECT count(*) FROM request_result WHERE request_key LIKE '" + expired + "%'"));
        assertEquals(1, Database.recordCountForKey(live));
    }

    @Test
    void protectedResponsesAdvertiseUntilWhenTheKeyIsHonoured() {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String path = "api/accounts/" + account + "/debits";

        HttpResponse<String> first = api.post("alice", path, key, "{\"amount\": 100}");
        HttpResponse<String> replay = api.post("alice", path, key, "{\"amount\": 100}");

        Instant advertised =
                httpDate(first.headers().firstValue("Idempotency-Key-Expires").orElseThrow());
        Instant stored = Database.instant("SELECT expires_at FROM request_result WHERE request_key = '" + key + "'");
        assertTrue(Duration.between(advertised, stored).abs().toSeconds() <= 5, advertised + " vs " + stored);
        assertEquals(
                stored.getEpochSecond(),
                httpDate(replay.headers().firstValue("Idempotency-Key-Expires").orElseThrow())
                        .getEpochSecond());
    }

    @Test
    void anOperationsOwnRetentionSetsItsRecordsExpiry() {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();

        api.post("alice", "api/test/accounts/" + account + "/slow", key, "{\"amount\": 100}");

        assertEquals(
                2 * 3600,
                Database.count("SELECT extract(epoch FROM expires_at - created_at)::bigint"
                        + " FROM request_result WHERE request_key = '" + key + "'"));
    }

    @Test
    void retryRacingThePurgeEitherReplaysOrRunsAsNewAndNeverFails() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 100_000);
        String path = "api/accounts/" + account + "/debits";
        int replayed = 0;
        int ranAgain = 0;
        for (int i = 0; i < 10; i++) {
            String key = UUID.randomUUID().toString();
            api.post("alice", path, key, "{\"amount\": 1}");
            Database.execute("UPDATE request_result SET expires_at = now() - interval '1 second'"
                    + " WHERE request_key = '" + key + "'");
            Thread.sleep(i * 100L); // retries land before, during and after the next purge

            HttpResponse<String> retry = api.post("alice", path, key, "{\"amount\": 1}");

            assertEquals(200, retry.statusCode(), retry.body());
            if (retry.headers().firstValue("Idempotent-Replayed").isPresent()) {
                replayed++;
            } else {
                ranAgain++;
            }
        }
        assertEquals(
                100_000 - 10 - ranAgain, Database.balance(account), replayed + " replayed, " + ranAgain + " ran again");
    }

    private static void insertRecord(String key, String expiresAt) throws Exception {
        Database.execute("INSERT INTO request_result (scope, operation, request_key, request, response_status,"
                + " response_headers, response_body, created_at, expires_at) VALUES ('alice', 'debit:v1', '" + key
                + "', '{}', 200, '{}', ''::bytea, now() - interval '2 hours', " + expiresAt + ")");
    }

    private static Instant httpDate(String value) {
        return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    }
}
