package dev.idempotency.servlet;

import dev.idempotency.IdempotencyRecords;
import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.canonical.RequestCanonicalizer;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.core.Attempt;
import dev.idempotency.core.Decision;
import dev.idempotency.core.IdempotentExecutor;
import dev.idempotency.core.RecordEncryption;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.tx.JtaTransaction;
import dev.idempotency.tx.TransactionControlAttempt;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The request path for one covered operation, in one straight line: key and scope, the buffered body,
 * transaction, claim with the canonical request made from that body, then either replay/reject an existing
 * record or run the application, store its final response and commit. Every path ends in one {@link Reply},
 * written once after the transaction has ended, and one {@link Outcome} for the listeners.
 *
 * <p>Thread-safe: it holds only immutable configuration; each request's state lives on its own stack.
 */
public final class IdempotentRequestHandler {
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /** On stored and replayed responses: until when a retry with the same key gets the stored response. */
    public static final String EXPIRES_HEADER = "Idempotency-Key-Expires";

    private static final Logger LOG = Logger.getLogger(IdempotentRequestHandler.class.getName());

    /** The 422's extension member: JSON pointers into the canonical request, where the two requests differ. */
    public static final String MISMATCHES_MEMBER = "mismatches";

    static final int MAX_SCOPE_HEADER_LENGTH = 255;

    private final Set<String> operationsLoggedAsAsync = ConcurrentHashMap.newKeySet();
    private final Set<String> operationsLoggedAsSelfManaged = ConcurrentHashMap.newKeySet();

    private final IdempotencyConfig config;
    private final IdempotencyKeyHeader keyHeader;
    private final RequestCanonicalizer canonicalizer = new RequestCanonicalizer();
    private final IdempotentExecutor executor;
    private final Map<String, Set<String>> replayRoles;
    private final SqlDialect dialect;
    private final KeylessTelemetry keylessTelemetry;
    private final OutcomeListener listener;

    public IdempotentRequestHandler(
            IdempotencyConfig config,
            JtaTransaction transaction,
            DataSource dataSource,
            SqlDialect dialect,
            KeylessTelemetry keylessTelemetry,
            OutcomeListener listener) {
        this.config = config;
        this.keyHeader = new IdempotencyKeyHeader(config.keyHeader());
        this.executor = new IdempotentExecutor(
                transaction,
                new RequestResultStore(dataSource, dialect),
                new RecordEncryption(config.encryptionKeys(), config.encryptedOperations()),
                config.lockTimeout(),
                config.transactionTimeout(),
                listener);
        this.replayRoles = config.operations().stream()
                .collect(Collectors.toUnmodifiableMap(Operation::contract, Operation::replayRoles, (a, b) -> a));
        this.dialect = dialect;
        this.keylessTelemetry = keylessTelemetry;
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
            Optional<String> key = keyHeader.read(request);
            if (key.isEmpty()) {
                return passKeyless(request, response, chain, operation, rollout);
            }
            String scope = scopeOf(request, operation);
            BufferedBodyRequest buffered = BufferedBodyRequest.read(request, config.maxRequestBodyBytes());
            // Made from the buffered body whenever the core claims or compares, and kept by no one while the
            // application runs: the canonical text can be as long as the body.
            Supplier<CanonicalRequest> canonical = () -> canonicalizer.canonicalize(
                    request.getMethod(),
                    operation.contract(),
                    path,
                    request.getQueryString(),
                    request.getContentType(),
                    buffered.body(),
                    operation.ignored());
            Attempt attempt = new Attempt(
                    new RequestResultId(scope, operation.contract(), key.get()),
                    canonical,
                    config.retentionOf(operation),
                    () -> mayReplay(operation, request),
                    operation.concurrency() == Operation.Concurrency.WAIT,
                    config.lateRetryWindowOf(operation));
            if (rollout.mode() == RolloutMode.DRAIN) {
                Decision<CapturedResponse> found = executor.lookUp(attempt);
                if (found instanceof Decision.NotRecorded) {
                    // A new key in DRAIN runs unprotected and is not recorded.
                    chain.doFilter(buffered, response);
                    return new Reply.PassedThrough(Outcome.DRAIN_PASSED);
                }
                return replyFor(found, operation);
            }
            RunningExecution execution = new RunningExecution(attempt.id());
            return replyFor(
                    executor.execute(
                            attempt, () -> runApplication(operation.contract(), execution, buffered, response, chain)),
                    operation);
        } catch (ProblemException problem) {
            return new Reply.Refusal(problem);
        }
    }

    /** The core's decision, as the one reply the client gets. */
    private Reply replyFor(Decision<CapturedResponse> decision, Operation operation) {
        String contract = operation.contract();
        if (decision instanceof Decision.Replayed<CapturedResponse> replayed) {
            return new Reply.Replay(replayed.record());
        }
        if (decision instanceof Decision.Executed<CapturedResponse> executed) {
            return new Reply.Captured(Outcome.EXECUTED, executed.result(), Optional.of(executed.expiresAt()));
        }
        if (decision instanceof Decision.RolledBack<CapturedResponse> rolledBack) {
            return new Reply.Captured(Outcome.ROLLED_BACK, rolledBack.result(), Optional.empty());
        }
        if (decision instanceof Decision.Doomed<CapturedResponse> doomed) {
            return refusal(
                    Problem.APPLICATION_FAILED,
                    "the application answered " + doomed.result().status() + " but its transaction was rolled back,"
                            + " so nothing of it was kept; retrying with the same key is safe");
        }
        if (decision instanceof Decision.Mismatched<CapturedResponse> mismatched) {
            return new Reply.Refusal(new ProblemException(
                    Problem.KEY_REUSED,
                    "this " + config.keyHeader() + " was already used for a different request to " + contract
                            + " (it differs at " + mismatched.differences() + "); send a new key for a new request,"
                            + " or resend the original request unchanged",
                    Map.of(MISMATCHES_MEMBER, mismatched.differences())));
        }
        if (decision instanceof Decision.Expired<CapturedResponse> expired) {
            return refusal(
                    Problem.KEY_EXPIRED,
                    "this " + config.keyHeader() + " was used for this request to " + contract + " more than its"
                            + " retention ago (its outcome was replayed until " + expired.answeredUntil() + "), and "
                            + contract + " does not run a late retry again; nothing was executed; if you mean a new"
                            + " request, send it with a new key");
        }
        if (decision instanceof Decision.ReplayForbidden<CapturedResponse>) {
            return refusal(
                    Problem.REPLAY_FORBIDDEN,
                    contract + " replays a stored response only to a caller in one of the roles "
                            + new TreeSet<>(operation.replayRoles())
                            + "; nothing was executed; ask the service's operators for the role, or for the record"
                            + " to be erased so the request can run again");
        }
        if (decision instanceof Decision.Failed<CapturedResponse> failed) {
            if (failed.failure() == Decision.Failure.IN_PROGRESS
                    && operation.concurrency() == Operation.Concurrency.REJECT) {
                return refusal(
                        Problem.REQUEST_IN_PROGRESS,
                        "another request with this key is still being processed, and " + contract + " does not"
                                + " wait for it; nothing was executed for this one; retry with the same key after the"
                                + " Retry-After delay to get its outcome");
            }
            return refusal(failed.failure());
        }
        throw new IllegalStateException("only a DRAIN look-up finds no record: " + decision);
    }

    private static Reply refusal(Decision.Failure failure) {
        return switch (failure) {
            case IN_PROGRESS -> refusal(
                    Problem.REQUEST_IN_PROGRESS,
                    "another request with this key is still being processed; nothing was executed for this one;"
                            + " retry with the same key after the Retry-After delay to get its outcome");
            case TRANSACTION_CONFLICT -> refusal(
                    Problem.TRANSACTION_CONFLICT,
                    "the database kept aborting the claim of this key to protect its isolation level; nothing was"
                            + " executed; retry with the same key");
            case STORE_UNAVAILABLE -> refusal(
                    Problem.STORE_UNAVAILABLE,
                    "the idempotency record could not be claimed or read, so nothing was executed; retry with the"
                            + " same key");
            case COMMIT_FAILED -> refusal(
                    Problem.COMMIT_FAILED,
                    "the request could not be committed and nothing of it was kept; retrying with the same key is"
                            + " safe");
            case RECORD_UNREADABLE -> refusal(
                    Problem.RECORD_UNREADABLE,
                    "the response stored for this key cannot be decrypted, so it is not replayed and the request"
                            + " is not executed again; report this to the service's operators, quoting the key");
        };
    }

    private static Reply refusal(Problem problem, String detail) {
        return new Reply.Refusal(new ProblemException(problem, detail));
    }

    /**
     * Container security constraints run before the filter on every retry, but checks inside the application
     * do not run on a replay; {@code replay-roles} re-checks the caller's roles at the time of the retry, so
     * a caller whose role was revoked within the retention gets no stored response (nor learns of one).
     */
    private boolean mayReplay(Operation operation, HttpServletRequest request) {
        Set<String> roles = replayRoles.getOrDefault(operation.contract(), Set.of());
        return roles.isEmpty() || roles.stream().anyMatch(request::isUserInRole);
    }

    private Reply passKeyless(
            HttpServletRequest request,
            HttpServletResponse response,
            FilterChain chain,
            Operation operation,
            RolloutModes.Setting rollout)
            throws IOException, ServletException, ProblemException {
        Principal principal = request.getUserPrincipal();
        keylessTelemetry.count(
                operation.contract(),
                principal == null ? null : principal.getName(),
                request.getHeader("User-Agent"),
                KeylessRequests.describe(request));
        if (rollout.mode() == RolloutMode.REQUIRED) {
            throw new ProblemException(
                    Problem.KEY_REQUIRED,
                    operation.contract() + " requires an " + config.keyHeader() + " header; send a new unique key"
                            + " (such as a UUID) per intended operation, and the same key on every retry of it");
        }
        if (rollout.mode() == RolloutMode.OPTIONAL) {
            announceKeylessDeprecation(response, rollout);
        }
        chain.doFilter(request, response);
        return new Reply.PassedThrough(Outcome.KEYLESS_PASSED);
    }

    /**
     * Tells keyless clients, in standard headers, that keys will become mandatory: {@code Deprecation} (RFC
     * 9745) dated when the operation's keys became optional, {@code Sunset} (RFC 8594) when a cut-over is
     * configured, and a {@code describedby} link to the migration guide.
     */
    private void announceKeylessDeprecation(HttpServletResponse response, RolloutModes.Setting rollout) {
        response.setHeader("Deprecation", "@" + rollout.changedAt().getEpochSecond());
        config.keylessSunset().ifPresent(sunset -> response.setHeader("Sunset", HttpDates.format(sunset)));
        config.keylessLink().ifPresent(link -> response.addHeader("Link", "<" + link + ">; rel=\"describedby\""));
    }

    /**
     * Keys are scoped by the authenticated caller; an anonymous caller must never share a scope. Without a
     * container principal, the {@code scope-header} a trusted gateway sets is the caller's identity, prefixed
     * so that it can never name the same scope as a principal.
     */
    private String scopeOf(HttpServletRequest request, Operation operation) throws ProblemException {
        Principal principal = request.getUserPrincipal();
        if (principal != null) {
            return principal.getName();
        }
        if (config.scopeHeader().isEmpty()) {
            throw new ProblemException(
                    Problem.AUTHENTICATION_REQUIRED,
                    operation.contract() + " scopes idempotency keys by the authenticated caller; authenticate and"
                            + " retry with the same key");
        }
        String header = config.scopeHeader().get();
        List<String> values = Collections.list(request.getHeaders(header));
        if (values.size() != 1 || values.get(0).isBlank() || values.get(0).length() > MAX_SCOPE_HEADER_LENGTH) {
            throw new ProblemException(
                    Problem.AUTHENTICATION_REQUIRED,
                    operation.contract() + " scopes idempotency keys by the caller named in the " + header
                            + " header, which must be sent once, non-blank and at most " + MAX_SCOPE_HEADER_LENGTH
                            + " characters long; send the request through the gateway that sets it, or"
                            + " authenticate, and retry with the same key");
        }
        return IdempotencyRecords.headerScope(values.get(0));
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
            FilterChain chain)
            throws ProblemException {
        CapturingResponseWrapper capture =
                new CapturingResponseWrapper(response, config.maxResponseBodyBytes(), request);
        try {
            ExposedExecution.during(execution, request, () -> chain.doFilter(request, capture));
        } catch (IOException | ServletException | RuntimeException e) {
            refuseAsynchronous(operation, request);
            if (dialect.classify(e) == SqlDialect.Failure.TRANSACTION_CONFLICT) {
                // A serialization failure or deadlock inside the application: nothing is kept, and the same
                // request may well succeed when retried, so say so with a retryable status.
                throw new ProblemException(
                        Problem.TRANSACTION_CONFLICT,
                        "the database aborted this request's transaction to protect its isolation level; nothing"
                                + " was kept; retry with the same key");
            }
            Optional<String> transactionControl = TransactionControlAttempt.in(e);
            if (transactionControl.isPresent()) {
                throw managesItsOwnTransactions(operation, transactionControl.get(), e);
            }
            LOG.log(Level.WARNING, operation + " failed and was rolled back", e);
            throw new ProblemException(
                    Problem.APPLICATION_FAILED,
                    "the request failed and nothing of it was kept; retrying with the same key is safe");
        }
        refuseAsynchronous(operation, request);
        CapturedResponse captured = capture.captured();
        if (captured.overflowed()) {
            // Responses the filter cannot hold whole are rolled back, never stored in part.
            throw new ProblemException(
                    Problem.RESPONSE_TOO_LARGE,
                    "the response of " + operation + " is larger than max-response-body ("
                            + config.maxResponseBodyBytes() + " bytes), so it could not be stored and nothing was"
                            + " kept; report this to the service's operators");
        }
        if (!config.storableStatuses().isStorable(captured.status())) {
            return new IdempotentExecutor.Ran<>(captured, Optional.empty());
        }
        return new IdempotentExecutor.Ran<>(
                captured,
                Optional.of(new StoredResponse(
                        captured.status(),
                        captured.headersIn(config.storedHeaders()),
                        captured.body(),
                        captured.writerCharset())));
    }

    /**
     * Code that commits, rolls back or begins transactions itself cannot join the filter's transaction, so every
     * keyed request to it fails the same way; say so precisely, to the client and once to the operators.
     */
    private ProblemException managesItsOwnTransactions(String operation, String refusal, Exception failure) {
        if (operationsLoggedAsSelfManaged.add(operation)) {
            LOG.log(
                    Level.SEVERE,
                    operation + " manages its own transactions, which cannot run inside the idempotency filter's"
                            + " JTA transaction, so every keyed request to it fails; the container refused with: "
                            + refusal + ". Let the code join the container's transaction (no commit, rollback,"
                            + " setAutoCommit or UserTransaction.begin), or remove the operation from 'operations'."
                            + " See docs/getting-started.md, 'Applications not shaped like REST resources'"
                            + " (logged once per operation)",
                    failure);
        }
        return new ProblemException(
                Problem.TRANSACTION_SELF_MANAGED,
                operation + " cannot be made idempotent as it is: its code manages its own database transactions"
                        + " (" + refusal + "), so nothing of this request was kept; retrying will fail the same"
                        + " way; report this to the service's operators");
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
        throw new ProblemException(
                Problem.ASYNCHRONOUS_RESPONSE,
                operation + " answers asynchronously, which the idempotency filter cannot store; nothing was"
                        + " kept; report this to the service's operators");
    }
}
