package dev.idempotency.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotency.config.Operation;
import dev.idempotency.metrics.OperationCounters;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.rollout.KeylessHistory;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.Readiness;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.runtime.FilterRuntime;
import dev.idempotency.store.CounterStore;
import dev.idempotency.store.KeylessDay;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * The admin servlet's report, as JSON: per operation its mode and who set it, this node's counts, the counts summed
 * over every node, the keyless history of the window and the readiness verdict. The readiness page is rendered from
 * this same document, so everything the page shows is in the JSON.
 *
 * <p>Thread-safe: it holds the runtime and a clock.
 */
public final class AdminReport {
    private static final Logger LOG = Logger.getLogger(AdminReport.class.getName());
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final FilterRuntime runtime;
    private final Clock clock;

    public AdminReport(FilterRuntime runtime, Clock clock) {
        this.runtime = runtime;
        this.clock = clock;
    }

    /** Every operation, with the cluster's counts and history as of each node's last flush. */
    public ObjectNode all() {
        ObjectNode body = JSON.objectNode();
        body.put("rolloutRefresh", runtime.config().rolloutRefresh().toString());
        body.put("counterFlushInterval", runtime.config().counterFlushInterval().toString());
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        LocalDate firstDay = KeylessHistory.firstDayKept(today, runtime.config().keylessHistoryDays());
        body.put("today", today.toString());
        List<CounterStore.Value> cluster = clusterCounters();
        Optional<List<KeylessDay>> history = keylessHistory(firstDay);
        ArrayNode operations = body.putArray("operations");
        Map<String, Map<KeylessTelemetry.Client, Long>> keyless =
                runtime.keylessTelemetry().snapshot();
        for (Operation operation : runtime.config().operations()) {
            ObjectNode described =
                    operation(operation, keyless.getOrDefault(operation.contract(), Collections.emptyMap()));
            described.set("cluster", cluster(operation.contract(), cluster));
            if (!history.isPresent()) {
                described
                        .putObject("readiness")
                        .putNull("ready")
                        .put("detail", "idempotency_keyless_day could not be read; no verdict (see the log)");
            } else {
                Readiness readiness = Readiness.of(
                        history.get().stream()
                                .filter(day -> day.operation().equals(operation.contract()))
                                .collect(Collectors.toList()),
                        firstDay,
                        today,
                        runtime.config().readinessQuietDays());
                described.set("readiness", readiness(readiness));
                described.set("keylessHistory", history(readiness, firstDay));
            }
            operations.add(described);
        }
        return body;
    }

    /** One operation's mode and this node's counts: the answer to a mode switch. */
    public ObjectNode operation(Operation operation) {
        return operation(
                operation,
                runtime.keylessTelemetry().snapshot().getOrDefault(operation.contract(), Collections.emptyMap()));
    }

    private ObjectNode operation(Operation operation, Map<KeylessTelemetry.Client, Long> keyless) {
        RolloutModes.Setting setting = runtime.rolloutModes().settingFor(operation.contract());
        ObjectNode node = JSON.objectNode();
        node.put("operation", operation.contract());
        node.put("route", operation.method() + " " + operation.path());
        node.put("mode", setting.mode().name());
        node.put("changedBy", setting.changedBy());
        node.put(
                "changedAt",
                setting.changedBy() == null ? null : setting.changedAt().toString());
        ObjectNode keylessNode = node.putObject("keyless");
        keylessNode.put(
                "total", keyless.values().stream().mapToLong(Long::longValue).sum());
        ArrayNode clients = keylessNode.putArray("clients");
        keyless.forEach((client, count) -> clients.addObject()
                .put("principal", client.principal())
                .put("userAgent", client.userAgentFamily())
                .put("count", count));
        // This node's counts since it started; JMX publishes the same counters.
        OperationCounters counters = runtime.metrics().countersOf(operation.contract());
        ObjectNode outcomes = node.putObject("outcomesOnThisNode");
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(jsonName(outcome.name()), counters.count(outcome));
        }
        outcomes.put("duplicateWaits", counters.getDuplicateWaits());
        outcomes.put("duplicateWaitMillis", counters.getDuplicateWaitMillis());
        return node;
    }

    private static ObjectNode readiness(Readiness readiness) {
        ObjectNode node = JSON.objectNode();
        node.put("ready", readiness.ready());
        node.put("quietDays", readiness.quietDays());
        ArrayNode blocking = node.putArray("blockingClients");
        readiness.blocking().forEach(client -> blocking.addObject()
                .put("principal", client.principal())
                .put("userAgent", client.userAgent())
                .put("lastSeen", client.lastSeen().toString()));
        node.put("probableDuplicatesLast7Days", readiness.probableDuplicatesLast7Days());
        return node;
    }

    private static ObjectNode history(Readiness readiness, LocalDate firstDay) {
        ObjectNode node = JSON.objectNode();
        node.put("firstDay", firstDay.toString());
        ArrayNode clients = node.putArray("clients");
        readiness.clients().forEach(client -> clients.addObject()
                .put("principal", client.principal())
                .put("userAgent", client.userAgent())
                .put("firstSeen", client.firstSeen().toString())
                .put("lastSeen", client.lastSeen().toString())
                .put("requests", client.requests())
                .put("probableDuplicates", client.duplicates())
                .put("probableDuplicatesLast7Days", client.duplicatesLast7Days()));
        ArrayNode daily = node.putArray("daily");
        readiness.days().forEach(day -> daily.addObject()
                .put("day", day.day().toString())
                .put("requests", day.requests())
                .put("probableDuplicates", day.duplicates()));
        return node;
    }

    /** Every node's flushed counts, or none if the table cannot be read (the node's own counts still show). */
    private List<CounterStore.Value> clusterCounters() {
        try {
            return runtime.counters().readAll();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "idempotency_counter could not be read", e);
            return Collections.emptyList();
        }
    }

    /** The window's history, or empty if the table cannot be read: no verdict then, rather than a false "ready". */
    private Optional<List<KeylessDay>> keylessHistory(LocalDate firstDay) {
        try {
            return Optional.of(runtime.keylessDays().readSince(firstDay));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "idempotency_keyless_day could not be read", e);
            return Optional.empty();
        }
    }

    /**
     * The operation's counts summed over every node, as of the last flush of each: {@code asOf} is the latest
     * flush that changed one of them, and a node's newer requests arrive within {@code counterFlushInterval}.
     */
    private static ObjectNode cluster(String operation, List<CounterStore.Value> values) {
        ObjectNode cluster = JSON.objectNode();
        ObjectNode outcomes = cluster.putObject("outcomes");
        for (Outcome outcome : Outcome.values()) {
            outcomes.put(jsonName(outcome.name()), 0L);
        }
        ObjectNode keyless = cluster.putObject("keyless");
        keyless.put("total", 0L);
        ArrayNode clients = keyless.putArray("clients");
        Instant asOf = null;
        for (CounterStore.Value value : values) {
            CounterStore.Key key = value.key();
            if (!key.operation().equals(operation)) {
                continue;
            }
            asOf = asOf == null || value.updatedAt().isAfter(asOf) ? value.updatedAt() : asOf;
            if (key.counter().equals(CounterStore.KEYLESS)) {
                keyless.put("total", keyless.get("total").asLong() + value.count());
                clients.addObject()
                        .put("principal", key.principal())
                        .put("userAgent", key.userAgent())
                        .put("count", value.count());
            } else {
                outcomes.put(jsonName(key.counter()), value.count());
            }
        }
        cluster.put("asOf", asOf == null ? null : asOf.toString());
        return cluster;
    }

    /** {@code MISMATCH} → {@code mismatches}, {@code IN_PROGRESS} → {@code inProgress}: the JMX names, camel case. */
    private static String jsonName(String counter) {
        if (counter.equals("MISMATCH")) {
            return "mismatches";
        }
        StringBuilder name = new StringBuilder();
        for (String word : counter.toLowerCase(Locale.ROOT).split("_")) {
            name.append(name.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return name.toString();
    }
}
