package dev.idempotency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotency.config.Operation;
import dev.idempotency.core.HeaderScope;
import dev.idempotency.metrics.OperationCounters;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.runtime.FilterRuntime;
import dev.idempotency.servlet.Problem;
import dev.idempotency.servlet.ProblemResponse;
import dev.idempotency.servlet.ResponseWriter;
import dev.idempotency.store.CounterStore;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's switchboard for an {@link IdempotencyFilter}: every operation's rollout mode and its
 * keyless traffic, and a way to switch modes for every node at once without a redeploy.
 *
 * <h2>Installation</h2>
 *
 * Map it under a URL that only operators can reach; the principal who switches a mode is recorded.
 *
 * <pre>{@code
 * <servlet>
 *     <servlet-name>idempotency-admin</servlet-name>
 *     <servlet-class>dev.idempotency.IdempotencyAdminServlet</servlet-class>
 * </servlet>
 * <servlet-mapping>
 *     <servlet-name>idempotency-admin</servlet-name>
 *     <url-pattern>/admin/idempotency/*</url-pattern>
 * </servlet-mapping>
 * <security-constraint> ... <role-name>idempotency-admin</role-name> ... </security-constraint>
 * }</pre>
 *
 * <table>
 * <caption>Init-params</caption>
 * <tr><th>name</th><th>format</th><th>default</th></tr>
 * <tr><td>{@code filter-name}</td><td>the {@code filter-name} of the idempotency filter to manage</td><td>the
 *     only idempotency filter in the application</td></tr>
 * </table>
 *
 * <h2>Requests</h2>
 *
 * <ul>
 *   <li>{@code GET /admin/idempotency}: every operation with its mode, who set it and when, and the keyless
 *       requests counted on this node since it started, per client (principal and User-Agent family).
 *   <li>{@code PUT /admin/idempotency?operation=debit:v1} with {@code {"mode": "REQUIRED"}}: switches the
 *       mode. Every node sees it within the filter's {@code rollout-refresh}; this node at once. (The
 *       operation is a query parameter because a {@code :} in the path trips some containers' security
 *       checks, WildFly's among them.)
 *   <li>{@code DELETE /admin/idempotency?scope=alice}: erasure; deletes every record of that scope (a
 *       principal's name, or {@code header:<value>} with the {@code scope-header} value as the caller sends it)
 *       on every operation, and answers how many. A header scope is deleted under its digest and under the value
 *       as earlier releases stored it, and the log line and the answer show only the digest. A retry of one of
 *       that caller's earlier requests then runs again. See {@link IdempotencyRecords}.
 * </ul>
 *
 * <p>Thread-safe.
 */
public class IdempotencyAdminServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    public static final String INIT_PARAM_FILTER_NAME = "filter-name";

    private static final String OPERATION_PARAMETER = "operation";
    private static final String SCOPE_PARAMETER = "scope";
    private static final ObjectMapper JSON = new ObjectMapper();

    private transient FilterRuntime runtime;

    @Override
    public void init() throws ServletException {
        String filterName =
                Optional.ofNullable(getInitParameter(INIT_PARAM_FILTER_NAME)).orElseGet(this::onlyFilter);
        runtime = FilterRuntime.find(getServletContext(), filterName)
                .orElseThrow(() -> new ServletException(INIT_PARAM_FILTER_NAME + ": no idempotency filter named '"
                        + filterName + "' in this application"));
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("rolloutRefresh", runtime.config().rolloutRefresh().toString());
        body.put("counterFlushInterval", runtime.config().counterFlushInterval().toString());
        List<CounterStore.Value> cluster = clusterCounters();
        ArrayNode operations = body.putArray("operations");
        Map<String, Map<KeylessTelemetry.Client, Long>> keyless =
                runtime.keylessTelemetry().snapshot();
        for (Operation operation : runtime.config().operations()) {
            ObjectNode described = describe(operation, keyless.getOrDefault(operation.contract(), Map.of()));
            described.set("cluster", cluster(operation.contract(), cluster));
            operations.add(described);
        }
        sendJson(response, body);
    }

    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String contract =
                Optional.ofNullable(request.getParameter(OPERATION_PARAMETER)).orElse("");
        Optional<Operation> operation = runtime.config().operations().stream()
                .filter(candidate -> candidate.contract().equals(contract))
                .findFirst();
        if (operation.isEmpty()) {
            ProblemResponse.send(
                    response,
                    Problem.OPERATION_UNKNOWN,
                    "no covered operation is named '" + contract + "'; PUT with ?" + OPERATION_PARAMETER + "= one of "
                            + contracts(),
                    request.getRequestURI());
            return;
        }
        Optional<RolloutMode> mode = requestedMode(request);
        if (mode.isEmpty()) {
            ProblemResponse.send(
                    response,
                    Problem.ROLLOUT_MODE_INVALID,
                    "send a JSON object such as {\"mode\": \"REQUIRED\"}; the mode is one of "
                            + List.of(RolloutMode.values()),
                    request.getRequestURI());
            return;
        }
        Principal operator = request.getUserPrincipal();
        try {
            runtime.rolloutModes().change(contract, mode.get(), operator == null ? "anonymous" : operator.getName());
        } catch (RuntimeException e) {
            log("switching " + contract + " to " + mode.get() + " failed", e);
            ProblemResponse.send(
                    response,
                    Problem.STORE_UNAVAILABLE,
                    "the rollout table could not be written, so nothing changed; try again",
                    request.getRequestURI());
            return;
        }
        sendJson(
                response,
                describe(operation.get(), runtime.keylessTelemetry().snapshot().getOrDefault(contract, Map.of())));
    }

    /** Erasure: deletes every record of the scope named by {@code ?scope=}, on every operation. */
    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String scope = request.getParameter(SCOPE_PARAMETER);
        if (scope == null || scope.isBlank()) {
            ProblemResponse.send(
                    response,
                    Problem.SCOPE_REQUIRED,
                    "name the caller whose records to erase: DELETE with ?" + SCOPE_PARAMETER + "=<principal name>, or"
                            + " ?" + SCOPE_PARAMETER + "=header:<value> for a caller named by the scope-header;"
                            + " nothing was deleted",
                    request.getRequestURI());
            return;
        }
        // A caller named by the scope-header is erased by the value the operator knows, and shown only by its
        // digest: the value can be a credential, so no log line or answer repeats it.
        Optional<String> headerValue = scope.startsWith(HeaderScope.PREFIX)
                ? Optional.of(scope.substring(HeaderScope.PREFIX.length()))
                : Optional.empty();
        String shown = headerValue.map(runtime.headerScope()::of).orElse(scope);
        int erased;
        try {
            erased = headerValue.isPresent() ? runtime.eraseHeaderScope(headerValue.get()) : runtime.eraseScope(scope);
        } catch (RuntimeException e) {
            log("erasing the records of scope '" + shown + "' failed", e);
            ProblemResponse.send(
                    response,
                    Problem.STORE_UNAVAILABLE,
                    "the records could not be deleted, so none was; try again",
                    request.getRequestURI());
            return;
        }
        Principal operator = request.getUserPrincipal();
        log("erased " + erased + " idempotency record(s) of scope '" + shown + "' at the request of "
                + (operator == null ? "anonymous" : operator.getName()));
        ObjectNode body = JSON.createObjectNode();
        body.put("scope", shown);
        body.put("erased", erased);
        sendJson(response, body);
    }

    private ObjectNode describe(Operation operation, Map<KeylessTelemetry.Client, Long> keyless) {
        RolloutModes.Setting setting = runtime.rolloutModes().settingFor(operation.contract());
        ObjectNode node = JSON.createObjectNode();
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

    /** Every node's flushed counts, or none if the table cannot be read (the node's own counts still show). */
    private List<CounterStore.Value> clusterCounters() {
        try {
            return runtime.counters().readAll();
        } catch (RuntimeException e) {
            log("idempotency_counter could not be read", e);
            return List.of();
        }
    }

    /**
     * The operation's counts summed over every node, as of the last flush of each: {@code asOf} is the latest
     * flush that changed one of them, and a node's newer requests arrive within {@code counterFlushInterval}.
     */
    private static ObjectNode cluster(String operation, List<CounterStore.Value> values) {
        ObjectNode cluster = JSON.createObjectNode();
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
        for (String word : counter.toLowerCase(java.util.Locale.ROOT).split("_")) {
            name.append(name.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return name.toString();
    }

    private static Optional<RolloutMode> requestedMode(HttpServletRequest request) {
        try {
            JsonNode body = JSON.readTree(request.getInputStream());
            String mode = body == null ? null : body.path("mode").asText(null);
            return mode == null ? Optional.empty() : Optional.of(RolloutMode.parse("mode", mode));
        } catch (IOException | ConfigurationException e) {
            return Optional.empty();
        }
    }

    private String onlyFilter() {
        List<String> names = getServletContext().getFilterRegistrations().values().stream()
                .filter(filter -> IdempotencyFilter.class.getName().equals(filter.getClassName()))
                .map(FilterRegistration::getName)
                .toList();
        if (names.size() != 1) {
            throw new IllegalStateException(INIT_PARAM_FILTER_NAME + " must name the idempotency filter to manage;"
                    + " the application has " + names);
        }
        return names.get(0);
    }

    private List<String> contracts() {
        return runtime.config().operations().stream().map(Operation::contract).toList();
    }

    private static void sendJson(HttpServletResponse response, JsonNode body) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        ResponseWriter.send(
                response,
                200,
                Map.of("Content-Type", List.of("application/json")),
                JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body).getBytes(StandardCharsets.UTF_8));
    }
}
