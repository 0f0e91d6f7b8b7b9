package dev.idempotency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotency.admin.AdminReport;
import dev.idempotency.admin.CsrfToken;
import dev.idempotency.admin.ModeSwitch;
import dev.idempotency.admin.ReadinessPage;
import dev.idempotency.config.Operation;
import dev.idempotency.core.HeaderScope;
import dev.idempotency.runtime.FilterRuntime;
import dev.idempotency.servlet.Problem;
import dev.idempotency.servlet.ProblemException;
import dev.idempotency.servlet.ProblemResponse;
import dev.idempotency.servlet.ResponseWriter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

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
 *   <li>{@code GET /admin/idempotency}: every operation with its mode, who set it and when, the keyless
 *       requests counted on this node since it started, per client (principal and User-Agent family), the
 *       counts summed over every node, the keyless history of {@code keyless-history-days} and the readiness
 *       verdict ({@code docs/rollout.md}). A browser ({@code Accept: text/html}) gets the same as the readiness
 *       page, with one button per mode.
 *   <li>{@code POST /admin/idempotency} with the form fields {@code operation}, {@code mode} and {@code csrf}: the
 *       page's buttons. The token is the session's ({@code 403 csrf-token-invalid} without it); the answer is a
 *       redirect back to the page.
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
    private static final String MODE_PARAMETER = "mode";
    private static final String SCOPE_PARAMETER = "scope";
    private static final ObjectMapper JSON = new ObjectMapper();

    private transient FilterRuntime runtime;
    private transient AdminReport report;
    private transient ModeSwitch modeSwitch;

    @Override
    public void init() throws ServletException {
        String filterName =
                Optional.ofNullable(getInitParameter(INIT_PARAM_FILTER_NAME)).orElseGet(this::onlyFilter);
        runtime = FilterRuntime.find(getServletContext(), filterName)
                .orElseThrow(() -> new ServletException(INIT_PARAM_FILTER_NAME + ": no idempotency filter named '"
                        + filterName + "' in this application"));
        report = new AdminReport(runtime, Clock.systemUTC());
        modeSwitch = new ModeSwitch(runtime);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (wantsHtml(request)) {
            response.setHeader("Cache-Control", "no-store");
            response.setHeader("Content-Security-Policy", ReadinessPage.CONTENT_SECURITY_POLICY);
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("Referrer-Policy", "no-referrer");
            String page = ReadinessPage.render(report.all(), request.getRequestURI(), CsrfToken.of(request));
            ResponseWriter.send(
                    response,
                    200,
                    Collections.singletonMap("Content-Type", Collections.singletonList("text/html;charset=UTF-8")),
                    page.getBytes(StandardCharsets.UTF_8));
            return;
        }
        sendJson(response, report.all());
    }

    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String contract =
                Optional.ofNullable(request.getParameter(OPERATION_PARAMETER)).orElse("");
        try {
            Operation operation = modeSwitch.apply(
                    contract, requestedMode(request), request.getUserPrincipal(), ModeSwitch.Channel.API);
            sendJson(response, report.operation(operation));
        } catch (ProblemException problem) {
            ProblemResponse.send(response, problem.problem(), problem.detail(), request.getRequestURI());
        }
    }

    /** The readiness page's mode buttons: the session's CSRF token first, then the switch, then back to the page. */
    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!CsrfToken.carriedBy(request)) {
            ProblemResponse.send(
                    response,
                    Problem.CSRF_TOKEN_INVALID,
                    "a mode is switched from the readiness page's buttons, whose form carries this session's "
                            + CsrfToken.PARAMETER + " token; reload the page (GET with Accept: text/html) and use"
                            + " its button, or switch with PUT and a JSON body; nothing changed",
                    request.getRequestURI());
            return;
        }
        try {
            modeSwitch.apply(
                    Optional.ofNullable(request.getParameter(OPERATION_PARAMETER))
                            .orElse(""),
                    request.getParameter(MODE_PARAMETER),
                    request.getUserPrincipal(),
                    ModeSwitch.Channel.PAGE);
        } catch (ProblemException problem) {
            ProblemResponse.send(response, problem.problem(), problem.detail(), request.getRequestURI());
            return;
        }
        response.setStatus(HttpServletResponse.SC_SEE_OTHER);
        response.setHeader("Location", request.getRequestURI());
    }

    /** Erasure: deletes every record of the scope named by {@code ?scope=}, on every operation. */
    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String scope = request.getParameter(SCOPE_PARAMETER);
        if (scope == null || scope.trim().isEmpty() || scope.trim().equals(HeaderScope.PREFIX)) {
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

    /** A browser asks for HTML first; an API client, curl and the tests ask for JSON or anything. */
    private static boolean wantsHtml(HttpServletRequest request) {
        String accept = request.getHeader("Accept");
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html");
    }

    /** The mode's name from a JSON body such as {@code {"mode": "REQUIRED"}}, or {@code null}. */
    private static String requestedMode(HttpServletRequest request) {
        try {
            JsonNode body = JSON.readTree(request.getInputStream());
            return body == null ? null : body.path("mode").asText(null);
        } catch (IOException e) {
            return null;
        }
    }

    private String onlyFilter() {
        List<String> names = getServletContext().getFilterRegistrations().values().stream()
                .filter(filter -> IdempotencyFilter.class.getName().equals(filter.getClassName()))
                .map(FilterRegistration::getName)
                .collect(Collectors.toList());
        if (names.size() != 1) {
            throw new IllegalStateException(INIT_PARAM_FILTER_NAME + " must name the idempotency filter to manage;"
                    + " the application has " + names);
        }
        return names.get(0);
    }

    private static void sendJson(HttpServletResponse response, JsonNode body) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        ResponseWriter.send(
                response,
                200,
                Collections.singletonMap("Content-Type", Collections.singletonList("application/json")),
                JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body).getBytes(StandardCharsets.UTF_8));
    }
}
