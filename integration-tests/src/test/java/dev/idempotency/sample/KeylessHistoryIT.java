package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.KeylessHistoryReport;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.SampleContainerTest;
import dev.idempotency.sample.support.SampleDeployment;
import java.net.URL;
import java.net.http.HttpRequest;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The keyless history an operator decides on: kept in the database both WildFly nodes share, so it sums their
 * requests and outlives a node's restart; and the keyless requests that probably ran twice, counted apart.
 * Each test is its own client (a User-Agent family of its own), so its rows start from nothing.
 */
@RunAsClient
class KeylessHistoryIT extends SampleContainerTest {
    private static final String SECOND_NODE = "keyless-history-node";
    private static LocalServer secondNode;

    @BeforeAll
    static void startSecondNode() throws Exception {
        secondNode = SampleDeployment.startTestNode(SECOND_NODE, 100);
    }

    @AfterAll
    static void stopSecondNode() {
        if (secondNode != null) {
            secondNode.close();
        }
    }

    @Test
    void theHistoryIsSummedOverBothNodesAndOutlivesARestartOfOne() throws Exception {
        Api first = new Api(base);
        Api second = new Api(new URL("http://127.0.0.1:8180/sample/"));
        String family = family();
        long account = first.openAccount("alice", 10_000_000);

        // Amounts of different widths: six requests of six shapes, none a probable duplicate of another.
        assertEquals(200, keylessDebit(first, account, family, null, 1));
        assertEquals(200, keylessDebit(first, account, family, null, 10));
        assertEquals(200, keylessDebit(second, account, family, null, 100));
        assertEquals(200, keylessDebit(second, account, family, null, 1000));
        assertEquals(200, keylessDebit(second, account, family, null, 10_000));
        KeylessHistoryReport.awaitClient(first, "debit:v1", "alice", family, 5, 0);

        secondNode.close();
        secondNode = SampleDeployment.startTestNode(SECOND_NODE, 100);
        assertEquals(200, keylessDebit(second, account, family, null, 100_000));

        // The restarted node reads the history it had flushed before, with its new request added.
        JsonNode client = KeylessHistoryReport.awaitClient(second, "debit:v1", "alice", family, 6, 0);
        assertEquals(client, KeylessHistoryReport.client(first, "debit:v1", "alice", family));
        JsonNode readiness = KeylessHistoryReport.operation(second, "debit:v1").get("readiness");
        assertFalse(readiness.get("ready").asBoolean(), readiness.toString());
        boolean blocks = false;
        for (JsonNode blocking : readiness.get("blockingClients")) {
            blocks |= blocking.get("userAgent").asText().equals(family);
        }
        assertTrue(blocks, "the client blocks requiring keys: " + readiness);
    }

    @Test
    void retriesMarkedByTheClientAndRepeatedRequestsAreCountedApartFromFirstOnes() throws Exception {
        Api api = new Api(base);
        String family = family();
        long account = api.openAccount("alice", 10_000_000);

        // A Stainless SDK's first attempt says 0 and each retry its number; each request here has a shape of its
        // own (amounts of different widths), so only the marker can make the retries count.
        assertEquals(200, keylessDebit(api, account, family, "0", 1));
        assertEquals(200, keylessDebit(api, account, family, "1", 10));
        assertEquals(200, keylessDebit(api, account, family, "2", 100));
        // No marker, but the same request of the same client again within keyless-duplicate-window (PT1H in the
        // tests, so that no machine is slow enough to let the second fall outside it).
        assertEquals(200, keylessDebit(api, account, family, null, 1000));
        assertEquals(200, keylessDebit(api, account, family, null, 1000));

        JsonNode client = KeylessHistoryReport.awaitClient(api, "debit:v1", "alice", family, 5, 3);
        assertEquals(3, client.get("probableDuplicatesLast7Days").asLong());
    }

    /** A User-Agent family no other test uses. */
    private static String family() {
        return "it-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /**
     * A keyless debit of {@code amount} as alice from the client {@code family}: its shape (what the duplicate
     * count compares) is its method, path, type and length, so two amounts of one width are the same shape.
     */
    private static int keylessDebit(Api api, long account, String family, String retryCount, int amount) {
        HttpRequest.Builder request = api.request("alice", "api/accounts/" + account + "/debits")
                .header("Content-Type", "application/json")
                .header("User-Agent", family + "/1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": " + amount + "}"));
        if (retryCount != null) {
            request.header("X-Stainless-Retry-Count", retryCount);
        }
        return Api.send(request.build()).statusCode();
    }
}
