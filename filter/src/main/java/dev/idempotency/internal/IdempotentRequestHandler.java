package dev.idempotency.internal;

import dev.idempotency.IdempotencyRecords;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.canonical.RequestCanonicalizer;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.servlet.BufferedBodyRequest;
import dev.idempotency.servlet.CapturedResponse;
import dev.idempotency.servlet.CapturingResponseWrapper;
import dev.idempotency.servlet.HttpDates;
import dev.idempotency.servlet.IdempotencyKeyHeader;
import dev.idempotency.servlet.Problem;
import dev.idempotency.servlet.ProblemException;
import dev.idempotency.store.ClaimOutcome;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.store.TransactionConflictException;
import dev.idempotency.tx.JtaTransaction;
import dev.idempotency.tx.TransactionControlAttempt;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The request path for one covered operation, in one straight line: key and scope, canonical request,
 * transaction, claim, then either replay/reject an existing record or run the application, store its
 * final response and commit. Every path ends in one {@link Reply}, written once after the transaction has
 * ended, and one {@link Outcome} for the listeners.
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

    /** A claim that keeps hitting serialization failures gives up after this many transactions. */
    static final int MAX_CLAIM_TRANSACTIONS = 3;

    private static final Duration MIN_CLAIM_WAIT = Duration.ofMillis(1);

    private final Set<String> operationsLoggedAsAsync = ConcurrentHashMap.newKeySet();
    private final Set<String> operationsLoggedAsSelfManaged = ConcurrentHashMap.newKeySet();

    private final IdempotencyConfig config;
    private final IdempotencyKeyHeader keyHeader;
    private final RequestCanonicalizer canonicalizer = new RequestCanonicalizer();
    private final KeysInFlight keysInFlight = new KeysInFlight();
    private final JtaTransaction transaction;
    private final RequestResultStore store;
    private final RecordEncryption encryption;
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
        this.transaction = transaction;
        this.store = new RequestResultStore(dataSource, dialect);
        this.encryption = new RecordEncryption(config.encryptionKeys(), config.encryptedOperations());
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
            CanonicalRequest canonical = canonicalizer.canonicalize(
                    request.getMethod(),
                    operation.contract(),
                    path,
                    request.getQueryString(),
                    request.getContentType(),
                    buffered.body());
            RequestResultId id = new RequestResultId(scope, operation.contract(), key.get());
            if (rollout.mode() == RolloutMode.DRAIN) {
                return replayOrPassThrough(id, canonical, buffered, response, chain);
            }
            return claimInTurn(id, canonical, config.retentionOf(operation), buffered, response, chain);
        } catch (ProblemException problem) {
            return new Reply.Refusal(problem);
        }
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
                operation.contract(), principal == null ? null : principal.getName(), request.getHeader("User-Agent"));
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
     * A duplicate of a request in flight on this node waits here first, without a connection ({@link
     * KeysInFlight}); the whole wait, here and in the claim, stays within {@code lock-timeout}.
     */
    private Reply claimInTurn(
            RequestResultId id,
            CanonicalRequest canonical,
            Duration retention,
            BufferedBodyRequest request,
            HttpServletResponse response,
            FilterChain chain)
            throws IOException, ServletException, ProblemException {
        long started = System.nanoTime();
        long deadline = started + config.lockTimeout().toNanos();
        if (!keysInFlight.enter(id, deadline)) {
            throw inProgress(id, started);
        }
        try {
            return claimAndRun(id, canonical, retention, request, response, chain, started, deadline);
        } finally {
            keysInFlight.leave(id);
        }
    }

    private Reply claimAndRun(
            RequestResultId id,
            CanonicalRequest canonical,
            Duration retention,
            BufferedBodyRequest request,
            HttpServletResponse response,
            FilterChain chain,
            long started,
            long deadline)
            throws IOException, ServletException, ProblemException {
        // The transaction's one boundary: it begins here, commits only in storeAndCommit, and is rolled back
        // in finally whatever else happened, always before the reply is written.
        for (int attempt = 1; ; attempt++) {
            transaction.begin(config.transactionTimeout());
            try {
                ClaimOutcome claimed = claim(id, canonical, retention, started, deadline);
                if (claimed instanceof ClaimOutcome.Existing existing) {
                    return replay(existing.record(), canonical, request);
                }
                CapturedResponse captured = runApplication(id.operation(), request, response, chain);
                if (!config.storableStatuses().isStorable(captured.status())) {
                    // A failure or a refusal that is not a final outcome: undo its effects, keep the key free.
                    return new Reply.Captured(Outcome.ROLLED_BACK, captured, Optional.empty());
                }
                storeAndCommit(id, captured);
                return new Reply.Captured(
                        Outcome.EXECUTED, captured, Optional.of(Instant.now().plus(retention)));
            } catch (TransactionConflictException e) {
                // Nothing has run yet, so a new transaction with the same key is safe (the chapter's rule for
                // isolation levels above Read Committed); it will usually find the winner's record.
                if (attempt == MAX_CLAIM_TRANSACTIONS) {
                    throw new ProblemException(
                            Problem.TRANSACTION_CONFLICT,
                            "the database kept aborting the claim of this key to protect its isolation level;"
                                    + " nothing was executed; retry with the same key");
                }
            } finally {
                // A no-op after the commit. Otherwise it undoes the claim and anything the application did,
                // and a replay's read-only transaction gives its connection back before the replay is sent.
                transaction.rollback();
            }
        }
    }

    /**
     * DRAIN: a stored record is still honoured (replay or 422), because its client is entitled to it; a new
     * key runs unprotected and is not recorded.
     */
    private Reply replayOrPassThrough(
            RequestResultId id,
            CanonicalRequest canonical,
            BufferedBodyRequest request,
            HttpServletResponse response,
            FilterChain chain)
            throws IOException, ServletException, ProblemException {
        Optional<StoredRecord> stored;
        transaction.begin(config.transactionTimeout());
        try {
            stored = store.find(id);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "reading " + id + " failed", e);
            throw new ProblemException(
                    Problem.STORE_UNAVAILABLE,
                    "the idempotency record could not be read, so nothing was executed; retry with the same key");
        } finally {
            transaction.rollback();
        }
        if (stored.isPresent()) {
            return replay(stored.get(), canonical, request);
        }
        chain.doFilter(request, response);
        return new Reply.PassedThrough(Outcome.DRAIN_PASSED);
    }

    private ClaimOutcome claim(
            RequestResultId id, CanonicalRequest canonical, Duration retention, long started, long deadline)
            throws ProblemException {
        // At least a millisecond: the request ahead on this node has ended, so its record is no longer locked.
        Duration maxWait = Duration.ofNanos(Math.max(deadline - System.nanoTime(), MIN_CLAIM_WAIT.toNanos()));
        try {
            ClaimOutcome outcome = store.claim(id, encryption.storedRequest(id, canonical.text()), retention, maxWait);
            if (outcome instanceof ClaimOutcome.Existing) {
                listener.waitedForDuplicate(id.operation(), Duration.ofNanos(System.nanoTime() - started));
            }
            return outcome;
        } catch (RequestInProgressException e) {
            throw inProgress(id, started);
        } catch (TransactionConflictException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "claiming " + id + " failed", e);
            throw new ProblemException(
                    Problem.STORE_UNAVAILABLE,
                    "the idempotency record could not be claimed, so nothing was executed; retry with the same key");
        }
    }

    private ProblemException inProgress(RequestResultId id, long started) {
        listener.waitedForDuplicate(id.operation(), Duration.ofNanos(System.nanoTime() - started));
        return new ProblemException(
                Problem.REQUEST_IN_PROGRESS,
                "another request with this key is still being processed; nothing was executed for this one;"
                        + " retry with the same key after the Retry-After delay to get its outcome");
    }

    /** The stored response, if the record was made by this very request; 422 if the key was used for another. */
    private Reply replay(StoredRecord stored, CanonicalRequest canonical, HttpServletRequest request)
            throws ProblemException {
        requireReplayRole(stored.id().operation(), request);
        StoredRecord record = readable(stored);
        if (!record.request().equals(canonical.text())) {
            List<String> mismatches = canonical.differencesFrom(record.request());
            throw new ProblemException(
                    Problem.KEY_REUSED,
                    "this " + config.keyHeader() + " was already used for a different request to "
                            + record.id().operation() + " (it differs at " + mismatches
                            + "); send a new key for a new request, or resend the original request unchanged",
                    Map.of(MISMATCHES_MEMBER, mismatches));
        }
        return new Reply.Replay(record);
    }

    /**
     * Container security constraints run before the filter on every retry, but checks inside the application
     * do not run on a replay; {@code replay-roles} re-checks the caller's roles at the time of the retry, so
     * a caller whose role was revoked within the retention gets no stored response (nor learns of one).
     */
    private void requireReplayRole(String operation, HttpServletRequest request) throws ProblemException {
        Set<String> roles = replayRoles.getOrDefault(operation, Set.of());
        if (!roles.isEmpty() && roles.stream().noneMatch(request::isUserInRole)) {
            throw new ProblemException(
                    Problem.REPLAY_FORBIDDEN,
                    operation + " replays a stored response only to a caller in one of the roles "
                            + new TreeSet<>(roles)
                            + "; nothing was executed; ask the service's operators for the role, or for the record"
                            + " to be erased so the request can run again");
        }
    }

    /** A record that cannot be opened is neither replayed nor executed again: either could break its promise. */
    private StoredRecord readable(StoredRecord stored) throws ProblemException {
        try {
            return encryption.readable(stored);
        } catch (RecordEncryption.UnreadableRecordException e) {
            LOG.severe("the record " + stored.id() + " cannot be opened: " + e.getMessage() + "; it is not replayed");
            throw new ProblemException(
                    Problem.RECORD_UNREADABLE,
                    "the response stored for this key cannot be decrypted, so it is not replayed and the request"
                            + " is not executed again; report this to the service's operators, quoting the key");
        }
    }

    /** Runs the application with its response held back; a run that cannot be stored is refused. */
    private CapturedResponse runApplication(
            String operation, BufferedBodyRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException, ProblemException {
        CapturingResponseWrapper capture =
                new CapturingResponseWrapper(response, config.maxResponseBodyBytes(), request);
        try {
            chain.doFilter(request, capture);
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
        return captured;
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

    private void storeAndCommit(RequestResultId id, CapturedResponse captured) throws ProblemException {
        if (!transaction.isCommittable()) {
            throw new ProblemException(
                    Problem.APPLICATION_FAILED,
                    "the application answered " + captured.status() + " but its transaction was rolled back, so"
                            + " nothing of it was kept; retrying with the same key is safe");
        }
        try {
            store.complete(
                    id,
                    encryption.storedResponse(
                            id,
                            new StoredResponse(
                                    captured.status(),
                                    captured.headersIn(config.storedHeaders()),
                                    captured.body(),
                                    captured.writerCharset())));
            transaction.commit();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, id.operation() + " could not be committed", e);
            throw new ProblemException(
                    Problem.COMMIT_FAILED,
                    "the request could not be committed and nothing of it was kept; retrying with the same key is"
                            + " safe");
        }
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
