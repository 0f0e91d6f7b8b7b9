package dev.idempotency;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.internal.IdempotentRequestHandler;
import dev.idempotency.tx.JtaTransaction;
import jakarta.persistence.EntityManager;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * Makes retried POSTs (and other unsafe requests) safe: the <em>idempotency record</em> pattern, in the
 * application's own JTA transaction.
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
 * Add the table ({@code META-INF/idempotency/postgresql.sql} in this jar), list the entity in the
 * application's {@code persistence.xml}, and map the filter in {@code web.xml}:
 *
 * <pre>{@code
 * <persistence-context-ref>
 *     <persistence-context-ref-name>persistence/idempotency</persistence-context-ref-name>
 *     <persistence-unit-name>your-unit</persistence-unit-name>
 * </persistence-context-ref>
 *
 * <filter>
 *     <filter-name>idempotency</filter-name>
 *     <filter-class>dev.idempotency.IdempotencyFilter</filter-class>
 *     <init-param>
 *         <param-name>operations</param-name>
 *         <param-value>
 *             POST /api/accounts/{id}/debits = debit:v1
 *         </param-value>
 *     </init-param>
 * </filter>
 * <filter-mapping>
 *     <filter-name>idempotency</filter-name>
 *     <url-pattern>/api/*</url-pattern>
 * </filter-mapping>
 * }</pre>
 *
 * <h2>Configuration</h2>
 *
 * Settings come from init-params, or from a properties file named by the {@code config-file}
 * init-param (for example {@code /WEB-INF/idempotency.properties}); a setting given in both places is an
 * error. An unknown or malformed setting fails the deployment with a message that names it.
 *
 * <table>
 * <caption>Settings</caption>
 * <tr><th>name</th><th>format</th><th>default</th></tr>
 * <tr><td>{@code operations}</td><td>one {@code METHOD /path/{var} = name:version} per line (or separated by
 *     {@code ;}); GET, HEAD, OPTIONS and TRACE are refused</td><td>required</td></tr>
 * <tr><td>{@code key-header}</td><td>a header name</td><td>{@code Idempotency-Key}</td></tr>
 * <tr><td>{@code keyless-requests}</td><td>{@code pass-through} (execute unprotected, store nothing) or
 *     {@code reject} (400)</td><td>{@code pass-through}</td></tr>
 * <tr><td>{@code entity-manager}</td><td>JNDI name of the application's container-managed entity
 *     manager</td><td>{@code java:comp/env/persistence/idempotency}</td></tr>
 * <tr><td>{@code database}</td><td>{@code postgresql}</td><td>{@code postgresql}</td></tr>
 * <tr><td>{@code max-request-body}</td><td>bytes, at least 1024; larger bodies get 413, chunked ones
 *     included</td><td>{@code 1048576}</td></tr>
 * <tr><td>{@code max-response-body}</td><td>bytes, at least 1024; a larger response is rolled back and
 *     answered 500, never stored truncated</td><td>{@code 1048576}</td></tr>
 * <tr><td>{@code stored-headers}</td><td>comma-separated header names replayed with a stored response;
 *     {@code Set-Cookie}, {@code WWW-Authenticate} and {@code Authorization} are refused</td><td>{@code
 *     Content-Type, Location}</td></tr>
 * <tr><td>{@code storable-statuses}</td><td>{@code 2xx}, optionally {@code 3xx} and final 4xx refusals, such
 *     as {@code 2xx, 409}</td><td>{@code 2xx}</td></tr>
 * <tr><td>{@code retention}</td><td>ISO-8601 duration, at least {@code PT1M} and at least {@code
 *     transaction-timeout}; sets each record's {@code expires_at}</td><td>{@code PT24H}</td></tr>
 * <tr><td>{@code lock-timeout}</td><td>whole seconds, ISO-8601; how long a duplicate waits for the request
 *     holding its key before it gets 409</td><td>{@code PT10S}</td></tr>
 * <tr><td>{@code transaction-timeout}</td><td>whole seconds, ISO-8601; the JTA timeout of the filter's
 *     transactions</td><td>the container's</td></tr>
 * </table>
 *
 * <h2>Filter order and transactions</h2>
 *
 * The filter owns the transaction boundary: it calls {@code UserTransaction.begin()} itself, so no
 * transaction may be active when it runs. Map it after authentication (container security runs before
 * every filter) and before any filter that writes to the response or the database. The application's
 * database work joins the filter's transaction only if it uses the same data source as the entity manager
 * named by {@code entity-manager}; an EJB with {@code REQUIRES_NEW} or its own non-JTA connection escapes
 * the guarantee.
 *
 * <p>Operations are matched on the container's decoded path (servlet path plus path info), ignoring one
 * trailing slash. Asynchronous processing ({@code startAsync}) is refused on covered requests, because
 * the response must be complete before the transaction commits. Every error the filter answers itself is
 * an RFC 9457 {@code application/problem+json} whose {@code type} is listed in {@code docs/errors.md}.
 *
 * <p>Thread-safe: one instance serves all requests.
 */
public class IdempotencyFilter implements Filter {
    /** Names a properties file in the WAR that holds the settings, such as {@code /WEB-INF/idempotency.properties}. */
    public static final String INIT_PARAM_CONFIG_FILE = "config-file";

    private static final String USER_TRANSACTION = "java:comp/UserTransaction";
    private static final Logger LOG = Logger.getLogger(IdempotencyFilter.class.getName());

    private IdempotencyConfig config;
    private IdempotentRequestHandler handler;

    @Override
    public void init(FilterConfig filterConfig) throws ServletException {
        Map<String, String> initParameters = new HashMap<>();
        for (String name : Collections.list(filterConfig.getInitParameterNames())) {
            initParameters.put(name, filterConfig.getInitParameter(name));
        }
        String filterName = filterConfig.getFilterName();
        try {
            config = configure(filterName, initParameters, filterConfig.getServletContext());
        } catch (ConfigurationException e) {
            throw new ServletException(e.getMessage(), e);
        }
        handler = new IdempotentRequestHandler(
                config,
                new JtaTransaction(
                        lookup(USER_TRANSACTION, UserTransaction.class).orElseThrow()),
                () -> entityManager(config.entityManagerName()),
                SqlDialect.forDatabase(config.database()));
        LOG.info(() -> "Idempotency filter '" + filterName + "' protects "
                + config.operations().size() + " operation(s): " + config);
    }

    /**
     * Reads and checks one filter's settings, including that the transaction manager and the entity
     * manager can be found. Runs at deployment ({@link StartupValidation}) and again in {@link #init}.
     *
     * @throws ConfigurationException naming the filter and the setting that is wrong
     */
    static IdempotencyConfig configure(
            String filterName, Map<String, String> initParameters, ServletContext servletContext) {
        try {
            IdempotencyConfig parsed = SettingsParser.parse(settings(initParameters, servletContext));
            SqlDialect.forDatabase(parsed.database());
            if (lookup(USER_TRANSACTION, UserTransaction.class).isEmpty()) {
                throw new ConfigurationException("no UserTransaction at " + USER_TRANSACTION
                        + "; the filter needs a Jakarta EE container with JTA");
            }
            if (lookup(parsed.entityManagerName(), EntityManager.class).isEmpty()) {
                throw new ConfigurationException("entity-manager: no EntityManager at '" + parsed.entityManagerName()
                        + "'; declare a <persistence-context-ref> named 'persistence/idempotency' in web.xml, or"
                        + " set entity-manager to its JNDI name");
            }
            return parsed;
        } catch (ConfigurationException e) {
            throw new ConfigurationException("idempotency filter '" + filterName + "': " + e.getMessage());
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
        Optional<Operation> operation = config.operationFor(http.getMethod(), path);
        if (operation.isEmpty()) {
            chain.doFilter(request, response);
            return;
        }
        handler.handle(http, httpResponse, chain, operation.get(), path);
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

    private static Map<String, String> settings(Map<String, String> initParameters, ServletContext servletContext) {
        Map<String, String> settings = new HashMap<>(initParameters);
        String file = settings.remove(INIT_PARAM_CONFIG_FILE);
        if (file == null) {
            return settings;
        }
        Properties properties = new Properties();
        try (InputStream in = servletContext.getResourceAsStream(file)) {
            if (in == null) {
                throw new ConfigurationException(INIT_PARAM_CONFIG_FILE + ": no file '" + file + "' in the WAR");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new ConfigurationException(INIT_PARAM_CONFIG_FILE + ": '" + file + "' could not be read: " + e);
        }
        for (String name : properties.stringPropertyNames()) {
            if (settings.containsKey(name)) {
                throw new ConfigurationException(
                        "'" + name + "' is set both as an init-param and in '" + file + "'; set it in one place");
            }
            settings.put(name, properties.getProperty(name));
        }
        return settings;
    }

    private static <T> Optional<T> lookup(String name, Class<T> type) {
        try {
            Object found = new InitialContext().lookup(name);
            return type.isInstance(found) ? Optional.of(type.cast(found)) : Optional.empty();
        } catch (NamingException e) {
            return Optional.empty();
        }
    }

    /**
     * Looked up per request: the specification does not promise that an entity manager reference may be
     * shared between threads, only that each lookup gives one bound to the caller's transaction.
     */
    private static EntityManager entityManager(String name) {
        return lookup(name, EntityManager.class)
                .orElseThrow(() -> new IllegalStateException("no EntityManager at '" + name + "'"));
    }
}
