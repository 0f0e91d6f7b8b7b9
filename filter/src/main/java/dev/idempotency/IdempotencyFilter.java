package dev.idempotency;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.forms.FormKeys;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.runtime.FilterRuntime;
import dev.idempotency.servlet.ConditionParameters;
import dev.idempotency.servlet.ProblemException;
import dev.idempotency.servlet.ProblemResponse;
import dev.idempotency.servlet.ViewStateKeys;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Makes retried POSTs (and other unsafe requests) safe: the <em>idempotency record</em> pattern, in the
 * application's own JTA transaction.
 *
 * <p>Each operation has a rollout mode, switched at run time for every node ({@link IdempotencyAdminServlet},
 * {@code docs/rollout.md}): {@code OFF} steps aside, {@code OPTIONAL} protects keyed requests and lets keyless
 * ones run with {@code Deprecation} headers, {@code REQUIRED} refuses keyless ones with 400, and {@code DRAIN}
 * still replays stored records but records no new keys.
 *
 * <p>For each request to a configured operation that carries an {@code Idempotency-Key} header, the filter
 * scopes the key by the authenticated principal and the operation contract (such as {@code debit:v1}),
 * canonicalizes the request, begins a JTA transaction, and claims the key in the {@code request_result}
 * table. The first request runs the application with its response held back; a storable outcome (2xx by
 * default) is written to the record, the transaction commits, and only then is the response sent. A
 * retry with the same key and the same request gets the stored response back with {@code
 * Idempotent-Replayed: true}, without running the application. The same key with a different request gets
 * {@code 422}. A concurrent duplicate waits for the first request (up to {@code lock-timeout}), then
 * replays. A request that fails (any
 * other status, an exception, a transaction marked rollback-only, a failed commit) leaves no record, and
 * its key stays free.
 *
 * <h2>Installation</h2>
 *
 * Nothing in the application changes. Add the jar to {@code WEB-INF/lib}, create the tables ({@code
 * META-INF/idempotency/<engine>.sql} in this jar: PostgreSQL, MariaDB or H2), and put the settings into {@code
 * WEB-INF/idempotency.properties}:
 *
 * <pre>{@code
 * operations = POST /api/accounts/{id}/debits = debit:v1
 * }</pre>
 *
 * The file's presence makes {@link IdempotencyInitializer} register this filter for {@code /*}, ahead of the
 * application's own filters, even under {@code metadata-complete="true"}. The filter keeps its records with
 * JDBC on the application's JTA datasource, found from the WAR's JTA persistence unit (settings {@code
 * persistence-unit} and {@code datasource} choose when that is ambiguous), so the record shares the
 * application's transaction and connection; it adds nothing to the application's persistence units. To place
 * the filter yourself, map it in {@code web.xml} with the init-param {@code config-file} set to {@code
 * /WEB-INF/idempotency.properties}; the jar then registers nothing itself.
 *
 * <h2>Configuration</h2>
 *
 * Settings come from {@code WEB-INF/idempotency.properties}; a filter mapped in {@code web.xml} may also take
 * init-params, and names its file with the {@code config-file} init-param. A setting given in both places is
 * an error. An unknown or malformed setting fails the deployment with a message that names it.
 *
 * <p>Every setting, with its format, default and bounds, is declared once in {@link
 * dev.idempotency.config.Settings} and described in {@code docs/configuration.md}, whose settings table a test
 * holds to those declarations. The ones most adopters set: {@code operations} (one {@code METHOD /path/{var} =
 * name:version} per line; {@code /} is the context root; {@code POST /app?action=buy} covers one action of a
 * front controller), {@code scope-header} (for applications without login), {@code datasource} or {@code
 * persistence-unit} (when the WAR has no single JTA unit), {@code schema} ({@code validate} by default; {@code
 * create} for an application's own in-memory database) and {@code rollout-mode}.
 *
 * <h2>Filter order and transactions</h2>
 *
 * The filter owns the transaction boundary: it calls {@code UserTransaction.begin()} itself, so no
 * transaction may be active when it runs. Container security runs before every filter; a filter of the
 * application that authenticates or begins a transaction must run before it (map this filter in {@code
 * web.xml} after that one). The application's database work joins the filter's transaction only if it uses
 * the same JTA datasource as the records; an EJB with {@code REQUIRES_NEW} or its own non-JTA connection
 * escapes the guarantee.
 *
 * <p>Stored and replayed responses carry {@code Idempotency-Key-Expires}: until when a retry with the same
 * key gets the stored response. Expired records are purged on the container's managed scheduler, or, on a
 * server without one, by the first covered request after each {@code purge-interval}.
 *
 * <p>Operations are matched on the container's decoded path (servlet path plus path info), ignoring one
 * trailing slash. An operation with parameter conditions reads them as {@code getParameter} would, from the
 * query string and an {@code application/x-www-form-urlencoded} body, which it reads once and hands on; a
 * request to its path that meets no entry's conditions passes untouched. Code that commits, rolls back or begins
 * transactions itself cannot join the filter's transaction: its keyed requests get {@code 500
 * application-manages-transactions}. Responses go out with the status, headers and {@code Content-Type} the
 * application set; text it wrote through a writer goes through the container's writer again, so each container
 * labels and frames it as it would without the filter. Asynchronous processing ({@code startAsync}) is refused on covered requests, because
 * the response must be complete before the transaction commits. Every error the filter answers itself is
 * an RFC 9457 {@code application/problem+json} whose {@code type} is listed in {@code docs/errors.md}.
 *
 * <p>Thread-safe: one instance serves all requests.
 */
public class IdempotencyFilter implements Filter {
    /** Names a properties file in the WAR that holds the settings, such as {@code /WEB-INF/idempotency.properties}. */
    public static final String INIT_PARAM_CONFIG_FILE = FilterRuntime.INIT_PARAM_CONFIG_FILE;

    private FilterRuntime runtime;

    @Override
    public void init(FilterConfig filterConfig) throws ServletException {
        Map<String, String> initParameters = new HashMap<>();
        for (String name : Collections.list(filterConfig.getInitParameterNames())) {
            initParameters.put(name, filterConfig.getInitParameter(name));
        }
        try {
            runtime = FilterRuntime.of(filterConfig.getServletContext(), filterConfig.getFilterName(), initParameters);
            ViewStateKeys.check(filterConfig.getServletContext(), runtime.config());
            // Pages render the field this filter reads: <idem:keyField/> and FormKeys ask the context for its name.
            runtime.config().keyField().ifPresent(field -> filterConfig
                    .getServletContext()
                    .setAttribute(FormKeys.FIELD_NAME_ATTRIBUTE, field));
        } catch (ConfigurationException e) {
            throw new ServletException(e.getMessage(), e);
        }
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse httpResponse)) {
            chain.doFilter(request, response);
            return;
        }
        String path = operationPath(http);
        IdempotencyConfig config = runtime.config();
        HttpServletRequest matched = http;
        Optional<Operation> operation;
        if (config.hasConditionsOn(http.getMethod(), path)) {
            // Front controllers: which action this is may only be known from a form body, read once here.
            ConditionParameters parameters;
            try {
                parameters = ConditionParameters.of(http, config.maxRequestBodyBytes());
            } catch (ProblemException problem) {
                ProblemResponse.send(
                        httpResponse, problem.problem(), problem.detail(), http.getRequestURI(), problem.extensions());
                return;
            }
            matched = parameters.request();
            operation = config.operationFor(http.getMethod(), path, parameters::parameter);
        } else {
            operation = config.operationFor(http.getMethod(), path);
        }
        if (!operation.isPresent()) {
            chain.doFilter(matched, response);
            return;
        }
        // Before the request's transaction: the purge and the counter flush run in transactions of their own.
        runtime.requestArrived();
        // Read once per request: a mode switch never changes the outcome of a request in flight.
        RolloutModes.Setting rollout =
                runtime.rolloutModes().settingFor(operation.get().contract());
        if (rollout.mode() == RolloutMode.OFF) {
            chain.doFilter(matched, response);
            return;
        }
        runtime.handler().handle(matched, httpResponse, chain, operation.get(), path, rollout);
    }

    @Override
    public void destroy() {
        runtime.stop();
    }

    /**
     * The path operations are matched on: the container's decoded, normalized path (servlet path plus path
     * info), so {@code %64ebits} or {@code ;param} spellings that the application routes to the same resource
     * cannot slip past the filter. One trailing slash is ignored for the same reason.
     */
    private static String operationPath(HttpServletRequest request) {
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
