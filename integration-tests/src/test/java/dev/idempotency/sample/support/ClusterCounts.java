package dev.idempotency.sample.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;

/** The admin servlet's cluster-wide counts (every node's, summed in idempotency_counter), for assertions. */
public final class ClusterCounts {
    private ClusterCounts() {}

    /** The cluster-wide counts of {@code contract} as the admin servlet shows them. */
    public static JsonNode of(Api api, String contract) {
        for (JsonNode operation :
                Api.json(api.get("operator", "admin/idempotency")).get("operations")) {
            if (operation.get("operation").asText().equals(contract)) {
                return operation.get("cluster");
            }
        }
        throw new AssertionError(contract + " is not in the admin servlet's answer");
    }

    /**
     * Waits (up to ten seconds) until the cluster-wide counts of {@code contract} rose by exactly these amounts
     * since {@code before}: the outcomes named, and the keyless total.
     */
    public static void awaitIncrease(
            Api api, String contract, JsonNode before, Map<String, Long> outcomes, long keyless)
            throws InterruptedException {
        Map<String, Long> expected = new TreeMap<>(outcomes);
        expected.put("keyless", keyless);
        Map<String, Long> seen = Map.of();
        for (int attempt = 0; attempt < 50 && !seen.equals(expected); attempt++) {
            Thread.sleep(200);
            JsonNode now = of(api, contract);
            Map<String, Long> increase = new TreeMap<>();
            for (String name : outcomes.keySet()) {
                increase.put(
                        name,
                        now.get("outcomes").get(name).asLong()
                                - before.get("outcomes").get(name).asLong());
            }
            increase.put(
                    "keyless",
                    now.get("keyless").get("total").asLong()
                            - before.get("keyless").get("total").asLong());
            seen = increase;
        }
        assertEquals(expected, seen, "increase of the cluster-wide counts of " + contract);
    }
}
