package dev.idempotency.rollout;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts keyless requests to covered operations, per operation and per client (principal and User-Agent
 * family), so an operator can see when it is safe to require keys. Totals live in memory on this node
 * since it started; each request also goes to the day-by-day {@link KeylessHistory}, marked when it is one of
 * the {@link ProbableDuplicates}.
 *
 * <p>Thread-safe and cheap on the request path: one map lookup and one {@link LongAdder} increment.
 * Memory is bounded: past {@value #MAX_CLIENTS_PER_OPERATION} distinct clients of one operation, further
 * clients are counted together as {@code other/other}.
 */
public final class KeylessTelemetry {
    /** Who sent keyless requests: the authenticated principal ({@code anonymous} if none) and the client software. */
    public record Client(String principal, String userAgentFamily) implements Comparable<Client> {
        @Override
        public int compareTo(Client other) {
            int byPrincipal = principal.compareTo(other.principal);
            return byPrincipal != 0 ? byPrincipal : userAgentFamily.compareTo(other.userAgentFamily);
        }

        @Override
        public String toString() {
            return principal + "/" + userAgentFamily;
        }
    }

    static final int MAX_CLIENTS_PER_OPERATION = 1000;
    private static final Client OTHER = new Client("other", "other");

    private final Map<String, Map<Client, LongAdder>> counts = new ConcurrentHashMap<>();
    private final KeylessHistory history;
    private final ProbableDuplicates duplicates;

    public KeylessTelemetry(KeylessHistory history, ProbableDuplicates duplicates) {
        this.history = history;
        this.duplicates = duplicates;
    }

    /** Counts one keyless request of {@code operation}, and tells the history whether it probably ran twice. */
    public void count(String operation, String principal, String userAgent, KeylessRequest request) {
        Client client = new Client(principal == null ? "anonymous" : principal, UserAgentFamily.of(userAgent));
        Map<Client, LongAdder> clients = counts.computeIfAbsent(operation, o -> new ConcurrentHashMap<>());
        LongAdder count = clients.get(client);
        if (count == null) {
            client = clients.size() < MAX_CLIENTS_PER_OPERATION ? client : OTHER;
            count = clients.computeIfAbsent(client, c -> new LongAdder());
        }
        count.increment();
        history.record(operation, client, duplicates.isProbableDuplicate(client, request));
    }

    /** The day-by-day counts not yet flushed to the cluster-wide history. */
    public KeylessHistory history() {
        return history;
    }

    /** Operation → client → count, sorted, as of now. */
    public Map<String, Map<Client, Long>> snapshot() {
        Map<String, Map<Client, Long>> snapshot = new TreeMap<>();
        counts.forEach((operation, clients) -> {
            Map<Client, Long> perClient = new TreeMap<>();
            clients.forEach((client, count) -> perClient.put(client, count.sum()));
            snapshot.put(operation, perClient);
        });
        return snapshot;
    }

    /** One log line: {@code debit:v1 total=5 [alice/curl=3, bob/okhttp=2]; ...}, or empty if nothing was counted. */
    public String summary() {
        StringBuilder line = new StringBuilder();
        snapshot().forEach((operation, clients) -> {
            long total = clients.values().stream().mapToLong(Long::longValue).sum();
            if (line.length() > 0) {
                line.append("; ");
            }
            line.append(operation)
                    .append(" total=")
                    .append(total)
                    .append(' ')
                    .append(clients.toString().replace("{", "[").replace("}", "]"));
        });
        return line.toString();
    }
}
