package dev.idempotency.servlet;

import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.canonical.RequestCanonicalizer;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.config.OperationPolicy;
import dev.idempotency.core.Attempt;
import dev.idempotency.core.Decision;
import dev.idempotency.core.HeaderScope;
import dev.idempotency.core.IdempotentExecutor;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The request path for one covered operation, in one straight line: key and scope, the buffered body,
 * transaction, claim with the canonical request made from that body, then either replay/reject an existing
 * record or run the application, store its final response and commit. Every path ends in one {@link Reply},
 * written once after the transaction has ended, and one {@link Outcome} for the listeners.
 *
 * <p>It only adapts HTTP to the core and back: the {@link IdempotentExecutor} it is given decides (and reads every
 * failure of the application), the {@link ReplyCatalogue} holds every answer and its words, and keyless requests
 * pass the {@link KeylessGate}. It knows no SQL, no store and no policy: each operation's retention, waiting, late
 * retries, replay roles and key field come resolved, in its {@link OperationPolicy}.
 *
 * <p>Thread-safe: it holds only immutable configuration; each request's state lives on its own stack.
 */
public final class IdempotentRequestHandler {
    private static final Logger LOG = Logger.getLogger(IdempotentRequestHandler.class.getName());

    static final int MAX_SCOPE_HEADER_LENGTH = 255;

    /** What the scope of a key posted in a form starts with, after the principal's name if there is one. */
    public static final String SESSION_PREFIX = "session:";

    private static final HeaderScope SESSION_DIGEST = new HeaderScope(Optional.empty());

    private final Set<String> operationsLoggedAsAsync = ConcurrentHashMap.newKeySet();
    private final Set<String> operationsLoggedForRedirects = ConcurrentHashMap.newKeySet();

    private final IdempotencyConfig config;
    private final KeySource keys;
    private final RequestCanonicalizer canonicalizer = new RequestCanonicalizer();
    private final IdempotentExecutor executor;
    private final HeaderScope headerScope;
    private final ReplyCatalogue replies;
    private final KeylessGate keylessGate;
    private final OutcomeListener listener;

    /**
     * @param executor the runtime's one executor, over its one store and transaction
     * @param headerScope what a {@code scope-header} value becomes as a scope
     * @param listener told every request's outcome; the same the executor tells of waits
     */
    public IdempotentRequestHandler(
            IdempotencyConfig config,
            IdempotentExecutor executor,
            HeaderScope headerScope,
            KeylessTelemetry keylessTelemetry,
            OutcomeListener listener) {
        this.config = config;
        this.keys = new KeySource(config.keyHeader());
        this.executor = executor;
        this.headerScope = headerScope;
        this.replies = new ReplyCatalogue(
                config.keyHeader(),
                config.maxResponseBodyBytes(),
                config.lockTimeout(),
                new AnswerHints(config.retryHints(), config.problemErrorMember()));
        this.keylessGate = new KeylessGate(config, keylessTelemetry, replies);
        this.listener = listener;
    }

    /**
     * Answers one request to a covered operation: decides the reply, lets the transaction end, then writes
     * the reply once and reports its outcome.
     *
     * @param path the request path relative to the context path, as the operation matched it
     * @param rollout the operation's rollout mode, read once for this request; never {@code OFF}
     */
    public void handle(
            HttpServletRequest request,
            HttpServletResponse response,
            FilterChain chain,
            Operation operation,
            String path,
            RolloutModes.Setting rollout)
            throws IOException, ServletException {
        // Failed unless a reply says otherwise: an exception that escapes is a request the filter could not end.
        Outcome outcome = Outcome.FAILED;
        try {
            Reply reply = replyTo(request, response, chain, operation, path, rollout);
            outcome = reply.outcome();
            if (reply instanceof Reply.Refusal refusal && BrowserRefusal.wanted(request, config, operation)) {
                // A person reads this one: the application's own error page for the status, or a small page.
                BrowserRefusal.send(request, response, refusal);
                return;
            }
            reply.sendTo(response, request.getRequestURI());
        } finally {
            listener.requestEnded(operation.contract(), outcome);
        }
    }

    private Reply replyTo(
            HttpServletRequest request,
            HttpServletResponse response,
            FilterChain chain,
            Operation operation,
            String path,
            RolloutModes.Setting rollout)
            throws IOException, ServletException {
        try {
            OperationPolicy policy = config.policyOf(operation);
            Optional<String> keyField = policy.keyField();
            // A browser's key may be in the form body itself, so that body is read before the key is known.
            HttpServletRequest keyed = keys.needsBody(request, keyField)
                    ? BufferedBodyRequest.read(request, config.maxRequestBodyBytes())
                    : request;
            Optional<SentKey> key = keys.read(keyed, keyField);
            if (!key.isPresent()) {
                keylessGate.admit(keyed, response, operation, rollout);
                chain.doFilter(keyed, response);
                return new Reply.PassedThrough(Outcome.KEYLESS_PASSED);
            }
            String scope = key.get().fromForm() ? sessionScopeOf(keyed, operation) : scopeOf(keyed, operation);
            BufferedBodyRequest buffered = BufferedBodyRequest.read(keyed, config.maxRequestBodyBytes());
            // The key field is new on every render of a form, so it is no part of what the request is.
            List<String> ignored = key.get()
                    .formField()
                    .map(field -> withFormField(operation.ignored(), field))
                    .orElse(operation.ignored());
            // Made from the buffered body whenever the core claims or compares, and kept by no one while the
            // application runs: the canonical text can be as long as the body.
            Supplier<CanonicalRequest> canonical = () -> canonicalizer.canonicalize(
                    request.getMethod(),
                    operation.contract(),
                    path,
                    request.getQueryString(),
                    request.getContentType(),
                    buffered.body(),
                    ignored);
            // The roles are asked at the time of the retry: container constraints run before the filter on every
            // retry, but checks inside the application do not run on a replay.
            Attempt attempt = new Attempt(policy, scope, key.get().value(), canonical, request::isUserInRole);
            if (rollout.mode() == RolloutMode.DRAIN) {
                Decision<CapturedResponse> found = executor.lookUp(attempt);
                if (found instanceof Decision.NotRecorded) {
                    // A new key in DRAIN runs unprotected and is not recorded.
                    chain.doFilter(buffered, response);
                    return new Reply.PassedThrough(Outcome.DRAIN_PASSED);
                }
                return replies.replyFor(found, policy, key.get().value());
            }
            RunningExecution execution = new RunningExecution(attempt.id());
            boolean redirectsStored = key.get().fromForm();
            return replies.replyFor(
                    executor.execute(
                            attempt,
                            () -> runApplication(
                                    operation.contract(), execution, buffered, response, chain, redirectsStored)),
                    policy,
                    key.get().value());
        } catch (ProblemException problem) {
            // The key as sent, if it was, only to spread the Retry-After of a 503.
            String sentKey =
                    Optional.ofNullable(request.getHeader(config.keyHeader())).orElse("");
            if (problem.getCause() != null) {
                LOG.log(Level.WARNING, operation.contract() + " failed and was rolled back", problem.getCause());
            }
            return replies.refusal(config.policyOf(operation), sentKey, problem);
        }
    }

    /**
     * Keys are scoped by the authenticated caller; an anonymous caller must never share a scope. Without a
     * container principal, the {@code scope-header} a trusted gateway sets is the caller's identity, kept only
     * as its digest ({@link HeaderScope}): the value can be a credential.
     */
    private String scopeOf(HttpServletRequest request, Operation operation) throws ProblemException {
        Principal principal = request.getUserPrincipal();
        if (principal != null) {
            return principal.getName();
        }
        if (!config.scopeHeader().isPresent()) {
            throw replies.noCaller(operation.contract());
        }
        String header = config.scopeHeader().get();
        List<String> values = Collections.list(request.getHeaders(header));
        if (values.size() != 1
                || values.get(0).trim().isEmpty()
                || values.get(0).length() > MAX_SCOPE_HEADER_LENGTH) {
            throw replies.noCallerInHeader(operation.contract(), header, MAX_SCOPE_HEADER_LENGTH);
        }
        return headerScope.of(values.get(0));
    }

    /**
     * The scope of a key a browser posted in a form field: the browser session that rendered the form, behind the
     * principal's name when there is one. A form's key is only as secret as the page it is on, and a framework's
     * token (a JSF view state) is unique within one session only; bound to the session, a key that leaks is of
     * no use without the session's cookie. Only the session id's digest is kept: the id is a credential.
     */
    private String sessionScopeOf(HttpServletRequest request, Operation operation) throws ProblemException {
        jakarta.servlet.http.HttpSession session = request.getSession(false);
        if (session == null) {
            throw replies.noSession(operation.contract());
        }
        Principal principal = request.getUserPrincipal();
        String sessionScope =
                SESSION_PREFIX + SESSION_DIGEST.of(session.getId()).substring(HeaderScope.PREFIX.length());
        return principal == null ? sessionScope : principal.getName() + " " + sessionScope;
    }

    private static List<String> withFormField(List<String> ignored, String field) {
        List<String> withField = new java.util.ArrayList<>(ignored);
        withField.add("/body/form/" + field.replace("~", "~0").replace("/", "~1"));
        return withField;
    }

    /**
     * Runs the application with its response held back, in the attempt's transaction; a final outcome (a
     * storable status) is handed back to be stored, anything else only to be sent after the rollback. A run that
     * cannot be stored is refused. The application sees its execution only while it runs.
     */
    private IdempotentExecutor.Ran<CapturedResponse> runApplication(
            String operation,
            RunningExecution execution,
            BufferedBodyRequest request,
            HttpServletResponse response,
            FilterChain chain,
            boolean redirectsStored)
            throws ProblemException {
        CapturingResponseWrapper capture =
                new CapturingResponseWrapper(response, config.maxResponseBodyBytes(), request);
        try {
            ExposedExecution.during(execution, request, () -> chain.doFilter(request, capture));
        } catch (IOException | ServletException | RuntimeException e) {
            refuseAsynchronous(operation, request);
            // With its cause: the core reads in it a database's reason (a conflict is answered as one), or the
            // container's refusal of a transaction the application ran itself.
            throw replies.applicationFailed(e);
        }
        refuseAsynchronous(operation, request);
        CapturedResponse captured = capture.captured();
        if (captured.overflowed()) {
            // Responses the filter cannot hold whole are rolled back, never stored in part.
            throw replies.responseTooLarge(operation);
        }
        boolean redirect = captured.status() >= 300 && captured.status() < 400;
        if (!config.storableStatuses().isStorable(captured.status()) && !(redirect && redirectsStored)) {
            if (redirect && operationsLoggedForRedirects.add(operation)) {
                LOG.warning(operation + " answered a keyed request with a redirect (" + captured.status() + "),"
                        + " which is not a storable status, so its work was rolled back while the client follows"
                        + " the redirect as if it had succeeded; add 3xx to storable-statuses, or send browsers'"
                        + " keys in a form field (key-field), whose redirects are always stored. See"
                        + " docs/browser-forms.md (logged once per operation)");
            }
            return IdempotentExecutor.Ran.notToKeep(captured);
        }
        return IdempotentExecutor.Ran.toKeep(
                captured,
                captured.status(),
                captured.headersIn(config.storedHeaders()),
                captured.body(),
                captured.writerCharset());
    }

    /** Whether startAsync threw (most servlets) or was swallowed (some frameworks), the request is refused. */
    private void refuseAsynchronous(String operation, BufferedBodyRequest request) throws ProblemException {
        if (!request.asyncAttempted()) {
            return;
        }
        if (operationsLoggedAsAsync.add(operation)) {
            LOG.warning(operation + " tried to start asynchronous processing, which an idempotent operation"
                    + " cannot use; such requests are rolled back (logged once per operation)");
        }
        throw replies.asynchronous(operation);
    }
}
