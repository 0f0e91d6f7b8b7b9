package dev.idempotency.servlet;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Writes an RFC 9457 {@code application/problem+json} response. Stateless and thread-safe. */
public final class ProblemResponse {
    public static final String CONTENT_TYPE = "application/problem+json";

    private ProblemResponse() {}

    /**
     * @param detail what happened and what the client should do next
     * @param instance the request path the problem occurred on
     */
    public static void send(HttpServletResponse response, Problem problem, String detail, String instance)
            throws IOException {
        send(response, problem, detail, instance, Map.of());
    }

    /** @param extensions RFC 9457 extension members, written after the standard ones in name order */
    public static void send(
            HttpServletResponse response,
            Problem problem,
            String detail,
            String instance,
            Map<String, List<String>> extensions)
            throws IOException {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("type", problem.type());
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", detail);
        body.put("instance", instance);
        new TreeMap<>(extensions).forEach((name, values) -> values.forEach(body.putArray(name)::add));
        Map<String, List<String>> headers = problem.status() == 409 || problem.status() == 503
                ? Map.of("Content-Type", List.of(CONTENT_TYPE), WireNames.RETRY_AFTER_HEADER, List.of("1"))
                : Map.of("Content-Type", List.of(CONTENT_TYPE));
        ResponseWriter.send(response, problem.status(), headers, body.toString().getBytes(StandardCharsets.UTF_8));
    }
}
