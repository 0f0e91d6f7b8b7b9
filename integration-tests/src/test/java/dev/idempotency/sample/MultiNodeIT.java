package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.ClusterCounts;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.SampleContainerTest;
import dev.idempotency.sample.support.SampleDeployment;
import java.net.URL;
import java.util.Map;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two WildFly nodes share one PostgreSQL: the one Arquillian manages, and a second one this test starts
 * with its ports moved by 100. Concurrent duplicates spread over both nodes execute once: the database's
 * primary key decides, not any node's memory.
 */
@RunAsClient
class MultiNodeIT extends SampleContainerTest {
    private static final int CLIENTS = 20;
    private static LocalServer secondNode;

    @BeforeAll
    static void startSecondNode() throws Exception {
        secondNode = SampleDeployment.startTestNode("second-node", 100);
    }

    @AfterAll
    static void stopSecondNode() {
        if (secondNode != null) {
            secondNode.close();
        }
    }

    @Test
    void concurrentDuplicatesSentToBothNodesExecuteOnce() throws Exception {
        Api first = new Api(base);
        Api second = new Api(new URL("http://127.0.0.1:8180/sample/"));
        long account = first.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();

        int executed = Duplicates.debitAtOnce(
                CLIENTS, client -> client % 2 == 0 ? first : second, account, key, "{\"balance\":900}");

        assertEquals(1, executed, "exactly one node executed the debit");
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCountForKey(key));
    }

    @Test
    void keylessCountsOfBothNodesAddUpInTheCluster() throws Exception {
        Api first = new Api(base);
        Api second = new Api(new URL("http://127.0.0.1:8180/sample/"));
        long account = first.openAccount("alice", 1000);
        String debits = "api/accounts/" + account + "/debits";
        JsonNode before = ClusterCounts.of(first, "debit:v1");

        for (int i = 0; i < 2; i++) {
            assertEquals(
                    200, first.post("alice", debits, null, "{\"amount\": 1}").statusCode());
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    200, second.post("alice", debits, null, "{\"amount\": 1}").statusCode());
        }

        // Either node shows the sum, within the flush interval (one second in the tests).
        ClusterCounts.awaitIncrease(first, "debit:v1", before, Map.of("keylessPassed", 5L), 5);
        ClusterCounts.awaitIncrease(second, "debit:v1", before, Map.of("keylessPassed", 5L), 5);
    }
}
