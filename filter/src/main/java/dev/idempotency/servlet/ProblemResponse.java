package dev.idempotency.servlet;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
        send(response, problem, detail, instance, Collections.emptyMap());
    }

    /**
     * Without retry hints or Stripe's member (the admin servlet, and refusals before an operation is known); a 409 or
     * 503 says to retry after a second.
     *
     * @param extensions RFC 9457 extension members, written after the standard ones in name order
     */
    public static void send(
            HttpServletResponse response,
            Problem problem,
            String detail,
            String instance,
            Map<String, List<String>> extensions)
            throws IOException {
        Optional<RetryDelay> delay =
                retryable(problem) ? Optional.of(new RetryDelay(Duration.ofSeconds(1))) : Optional.empty();
        send(response, problem, detail, instance, extensions, AnswerHints.NONE, delay);
    }

    /**
     * @param hints the retry hints and Stripe's member, as the settings ask
     * @param delay the {@code Retry-After} of a 409 or 503
     */
    static void send(
            HttpServletResponse response,
            Problem problem,
            String detail,
            String instance,
            Map<String, List<String>> extensions,
            AnswerHints hints,
            Optional<RetryDelay> delay)
            throws IOException {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("type", problem.type());
        body.put("title", problem.title());
        body.put("status", problem.status());
        body.put("detail", detail);
        body.put("instance", instance);
        new TreeMap<>(extensions).forEach((name, values) -> values.forEach(body.putArray(name)::add));
        hints.errorMember(problem, detail).ifPresent(error -> body.set(WireNames.ERROR_MEMBER, error));
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put("Content-Type", Collections.singletonList(CONTENT_TYPE));
        delay.ifPresent(retry -> headers.putAll(retry.headers()));
        headers.putAll(hints.problemHeaders(problem));
        ResponseWriter.send(response, problem.status(), headers, body.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The problems whose answer a later retry can change, so that carry a {@code Retry-After}: 409 and 503. */
    static boolean retryable(Problem problem) {
        return problem.status() == 409 || problem.status() == 503;
    }
}
