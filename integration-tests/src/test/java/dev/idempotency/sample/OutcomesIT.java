package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.ClusterCounts;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.SampleContainerTest;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.sample.support.ServerMetricsScrape;
import dev.idempotency.sample.support.TestServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One outcome per request, counted exactly: a scripted sequence on {@code debit:v1}, then the counters read
 * over JMX (the MBean {@code dev.idempotency:type=Operation,application="/sample",name="debit:v1"}), from the
 * server's own metrics endpoint and from the admin servlet.
 */
@Tag("liberty")
@RunAsClient
class OutcomesIT extends SampleContainerTest {
    private static final String OBJECT_NAME =
            "dev.idempotency:type=Operation,application=\"/sample\",name=\"debit:v1\"";

    @Deployment(name = "second", managed = false, testable = false)
    static WebArchive second() {
        return SampleDeployment.create("outcomes-second.war");
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void everyRequestEndsWithOneCountedOutcome() throws Exception {
        Api api = new Api(base);
        // Earlier deployments flushed their counts when they stopped; this class's arrive on top.
        JsonNode before = ClusterCounts.of(api, "debit:v1");
        ServerMetricsScrape serverBefore = ServerMetricsScrape.now();
        long account = api.openAccount("alice", 10_000);
        String debits = "api/accounts/" + account + "/debits";
        String key = UUID.randomUUID().toString();

        assertEquals(200, api.post("alice", debits, key, "{\"amount\": 100}").statusCode()); // executed
        assertEquals(200, api.post("alice", debits, key, "{\"amount\": 100}").statusCode()); // replayed
        assertEquals(422, api.post("alice", debits, key, "{\"amount\": 101}").statusCode()); // mismatch
        // One executed, four replayed.
        assertEquals(
                1,
                Duplicates.debitAtOnce(5, i -> api, account, UUID.randomUUID().toString(), "{\"balance\":9800}"));
        assertEquals(
                409,
                api.post("alice", debits, UUID.randomUUID().toString(), "{\"amount\": 100000}")
                        .statusCode());
        assertEquals(200, api.post("alice", debits, null, "{\"amount\": 100}").statusCode()); // keyless
        assertEquals(
                400,
                api.post("alice", debits, "k".repeat(256), "{\"amount\": 100}").statusCode()); // rejected

        Map<String, String> expected = new TreeMap<>(Map.ofEntries(
                Map.entry("Operation", "debit:v1"),
                Map.entry("Executed", "2"),
                Map.entry("Replayed", "5"),
                Map.entry("Mismatches", "1"),
                Map.entry("InProgress", "0"),
                Map.entry("RolledBack", "1"),
                Map.entry("Failed", "0"),
                Map.entry("KeylessPassed", "1"),
                Map.entry("KeylessRefused", "0"),
                Map.entry("DrainPassed", "0"),
                Map.entry("Rejected", "1"),
                // The replay, the mismatch and the four duplicates found the key taken.
                Map.entry("DuplicateWaits", "6")));
        Map<String, String> jmx = jmxAttributes();
        jmx.remove("DuplicateWaitMillis");
        assertEquals(expected, jmx);

        // The same counts in the server's own metrics system (WildFly's Micrometer, Liberty's MicroProfile
        // Metrics), as a Prometheus scraper sees them.
        ServerMetricsScrape serverAfter = ServerMetricsScrape.now();
        Map<String, Double> expectedServerIncrease = Map.of(
                "executed",
                2.0,
                "replayed",
                5.0,
                "mismatch",
                1.0,
                "rolled_back",
                1.0,
                "keyless_passed",
                1.0,
                "rejected",
                1.0,
                "in_progress",
                0.0,
                "failed",
                0.0);
        for (Map.Entry<String, Double> increase : expectedServerIncrease.entrySet()) {
            String[] labels = {
                "application=\"/sample\"", "operation=\"debit:v1\"", "outcome=\"" + increase.getKey() + "\""
            };
            assertEquals(
                    increase.getValue(),
                    serverAfter.value("idempotency_requests_total", labels)
                            - serverBefore.value("idempotency_requests_total", labels),
                    increase.getKey() + " in:\n" + serverAfter.idempotencyLines());
        }
        String[] waitLabels = {"application=\"/sample\"", "operation=\"debit:v1\""};
        assertEquals(
                6.0,
                serverAfter.value("idempotency_duplicate_wait_seconds_count", waitLabels)
                        - serverBefore.value("idempotency_duplicate_wait_seconds_count", waitLabels),
                serverAfter.idempotencyLines());

        JsonNode outcomes = null;
        for (JsonNode operation :
                Api.json(api.get("operator", "admin/idempotency")).get("operations")) {
            if (operation.get("operation").asText().equals("debit:v1")) {
                outcomes = operation.get("outcomesOnThisNode");
            }
        }
        assertEquals(2, outcomes.get("executed").asLong());
        assertEquals(5, outcomes.get("replayed").asLong());
        assertEquals(1, outcomes.get("mismatches").asLong());
        assertEquals(1, outcomes.get("rolledBack").asLong());
        assertEquals(1, outcomes.get("keylessPassed").asLong());
        assertEquals(1, outcomes.get("rejected").asLong());
        assertEquals(6, outcomes.get("duplicateWaits").asLong());

        // Summed in the database within the flush interval (one second in the tests).
        Map<String, Long> expectedIncrease = Map.of(
                "executed",
                2L,
                "replayed",
                5L,
                "mismatches",
                1L,
                "rolledBack",
                1L,
                "keylessPassed",
                1L,
                "rejected",
                1L);
        ClusterCounts.awaitIncrease(api, "debit:v1", before, expectedIncrease, 1);

        // Another deployment of the same operation (a second node, as far as the table can tell) adds its
        // keyless requests, and they stay counted after it stops.
        deployer.deploy("second");
        try {
            Api second = new Api(TestServer.context("outcomes-second").toURL());
            long secondAccount = second.openAccount("alice", 1000);
            for (int i = 0; i < 3; i++) {
                assertEquals(
                        200,
                        second.post("alice", "api/accounts/" + secondAccount + "/debits", null, "{\"amount\": 1}")
                                .statusCode());
            }
        } finally {
            deployer.undeploy("second");
        }
        ClusterCounts.awaitIncrease(api, "debit:v1", before, Map.of("executed", 2L, "keylessPassed", 4L), 4);
    }

    private Map<String, String> jmxAttributes() {
        HttpResponse<String> response = Api.send(HttpRequest.newBuilder(
                        URI.create(base + "test-jmx?name=" + URLEncoder.encode(OBJECT_NAME, StandardCharsets.UTF_8)))
                .GET()
                .build());
        assertEquals(200, response.statusCode(), response.body());
        Map<String, String> attributes = new TreeMap<>();
        for (String line : response.body().split("\n")) {
            String[] parts = line.split("=", 2);
            attributes.put(parts[0], parts[1]);
        }
        return attributes;
    }
}
