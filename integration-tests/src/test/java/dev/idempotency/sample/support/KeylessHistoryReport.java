package dev.idempotency.sample.support;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/** One client's row of the admin servlet's keyless history (every node's days, summed), for assertions. */
public final class KeylessHistoryReport {
    private KeylessHistoryReport() {}

    /** The operation as the admin servlet reports it: mode, counts, {@code readiness} and {@code keylessHistory}. */
    public static JsonNode operation(Api api, String contract) {
        for (JsonNode operation :
                Api.json(api.get("operator", "admin/idempotency")).get("operations")) {
            if (operation.get("operation").asText().equals(contract)) {
                return operation;
            }
        }
        throw new AssertionError(contract + " is not in the admin servlet's answer");
    }

    /** The client's history row, or a missing node if it has none yet. */
    public static JsonNode client(Api api, String contract, String principal, String userAgentFamily) {
        for (JsonNode client : operation(api, contract).path("keylessHistory").path("clients")) {
            if (client.path("principal").asText().equals(principal)
                    && client.path("userAgent").asText().equals(userAgentFamily)) {
                return client;
            }
        }
        return MissingNode.getInstance();
    }

    /**
     * Waits (up to ten seconds, for each node's flush) until the client's history shows exactly these keyless
     * requests and probable duplicates, and returns its row.
     */
    public static JsonNode awaitClient(
            Api api, String contract, String principal, String userAgentFamily, long requests, long duplicates)
            throws InterruptedException {
        String expected = requests + " requests, " + duplicates + " probable duplicates";
        String seen = "no row";
        JsonNode client = MissingNode.getInstance();
        for (int attempt = 0; attempt < 50 && !seen.equals(expected); attempt++) {
            Thread.sleep(200);
            client = client(api, contract, principal, userAgentFamily);
            seen = client.isMissingNode()
                    ? "no row"
                    : client.path("requests").asLong() + " requests, "
                            + client.path("probableDuplicates").asLong() + " probable duplicates";
        }
        assertEquals(expected, seen, "keyless history of " + principal + "/" + userAgentFamily + " on " + contract);
        return client;
    }
}
