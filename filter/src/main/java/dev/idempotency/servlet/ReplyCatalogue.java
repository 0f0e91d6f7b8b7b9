package dev.idempotency.servlet;

import dev.idempotency.config.OperationPolicy;
import dev.idempotency.core.Decision;
import dev.idempotency.metrics.Outcome;
import java.time.Duration;
import java.util.Collections;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Every answer the filter gives a covered request, in one place: the core's {@link Decision} as the one {@link
 * Reply} the client gets, and each refusal of the request path with its problem and a detail that says what
 * happened and what to do. Change a reply's words here; {@code docs/errors.md} lists the problems for clients.
 *
 * <p>Immutable and thread-safe.
 */
final class ReplyCatalogue {
    /**
     * How long a 503, or a 409 after the duplicate waited at the server, tells the client to wait: a short backoff,
     * because the retry is answered at once (a store back up, a conflict that will not recur) or waits at the server
     * again, up to {@code lock-timeout}.
     */
    static final Duration BACKOFF = Duration.ofSeconds(1);

    private final String keyHeader;
    private final long maxResponseBodyBytes;
    private final Duration lockTimeout;
    private final AnswerHints hints;

    /**
     * @param keyHeader the name of the key header, as the details name it
     * @param maxResponseBodyBytes the {@code max-response-body}, as the detail of a response too large names it
     * @param lockTimeout how long a duplicate waits at the server for the first: what a {@code concurrent=reject}
     *     operation's 409 tells the client to wait instead
     * @param hints the retry hints and Stripe's member the answers carry
     */
    ReplyCatalogue(String keyHeader, long maxResponseBodyBytes, Duration lockTimeout, AnswerHints hints) {
        this.keyHeader = keyHeader;
        this.maxResponseBodyBytes = maxResponseBodyBytes;
        this.lockTimeout = lockTimeout;
        this.hints = hints;
    }

    /**
     * The core's decision, as the one reply the client gets.
     *
     * @param key the request's key, which spreads the {@code Retry-After} of clients refused together
     *
     * @throws IllegalStateException for {@link Decision.NotRecorded}, which the entry point answers by running the
     *     application itself
     */
    Reply replyFor(Decision<CapturedResponse> decision, OperationPolicy policy, String key) {
        String contract = policy.contract();
        if (decision instanceof Decision.Replayed<CapturedResponse> replayed) {
            return new Reply.Replay(replayed.record(), hints);
        }
        if (decision instanceof Decision.Executed<CapturedResponse> executed) {
            return new Reply.Captured(Outcome.EXECUTED, executed.result(), Optional.of(executed.expiresAt()));
        }
        if (decision instanceof Decision.RolledBack<CapturedResponse> rolledBack) {
            return new Reply.Captured(Outcome.ROLLED_BACK, rolledBack.result(), Optional.empty());
        }
        if (decision instanceof Decision.Doomed<CapturedResponse> doomed) {
            return refusal(
                    policy,
                    key,
                    Problem.APPLICATION_FAILED,
                    "the application answered " + doomed.result().status() + " but its transaction was rolled back,"
                            + " so nothing of it was kept; retrying with the same key is safe");
        }
        if (decision instanceof Decision.Mismatched<CapturedResponse> mismatched) {
            return refusal(
                    policy,
                    key,
                    new ProblemException(
                            Problem.KEY_REUSED,
                            "this " + keyHeader + " was already used for a different request to " + contract
                                    + " (it differs at " + mismatched.differences()
                                    + "); send a new key for a new request,"
                                    + " or resend the original request unchanged",
                            Collections.singletonMap(WireNames.MISMATCHES_MEMBER, mismatched.differences())));
        }
        if (decision instanceof Decision.Expired<CapturedResponse> expired) {
            return refusal(
                    policy,
                    key,
                    Problem.KEY_EXPIRED,
                    "this " + keyHeader + " was used for this request to " + contract + " more than its"
                            + " retention ago (its outcome was replayed until " + expired.answeredUntil() + "), and "
                            + contract + " does not run a late retry again; nothing was executed; if you mean a new"
                            + " request, send it with a new key");
        }
        if (decision instanceof Decision.ReplayForbidden<CapturedResponse>) {
            return refusal(
                    policy,
                    key,
                    Problem.REPLAY_FORBIDDEN,
                    contract + " replays a stored response only to a caller in one of the roles "
                            + new TreeSet<>(policy.replayRoles())
                            + "; nothing was executed; ask the service's operators for the role, or for the record"
                            + " to be erased so the request can run again");
        }
        if (decision instanceof Decision.TransactionControlRefused<CapturedResponse> refused) {
            return refusal(policy, key, managesItsOwnTransactions(contract, refused.refusal()));
        }
        if (decision instanceof Decision.Failed<CapturedResponse> failed) {
            if (failed.failure() == Decision.Failure.IN_PROGRESS && !policy.waitsForDuplicate()) {
                return refusal(
                        policy,
                        key,
                        new ProblemException(
                                Problem.REQUEST_IN_PROGRESS,
                                "another request with this key is still being processed, and " + contract + " does not"
                                        + " wait for it; nothing was executed for this one; retry with the same key after the"
                                        + " Retry-After delay to get its outcome"));
            }
            return refusal(policy, key, failure(failed.failure()));
        }
        throw new IllegalStateException("only a DRAIN look-up finds no record: " + decision);
    }

    private static ProblemException failure(Decision.Failure failure) {
        return switch (failure) {
            case IN_PROGRESS -> new ProblemException(
                    Problem.REQUEST_IN_PROGRESS,
                    "another request with this key is still being processed; nothing was executed for this one;"
                            + " retry with the same key after the Retry-After delay to get its outcome");
            case TRANSACTION_CONFLICT -> new ProblemException(
                    Problem.TRANSACTION_CONFLICT,
                    "the database kept aborting the claim of this key to protect its isolation level; nothing was"
                            + " executed; retry with the same key");
                // A serialization failure or deadlock inside the application: nothing is kept, and the same request
                // may well succeed when retried, so say so with a retryable status.
            case WORK_CONFLICT -> new ProblemException(
                    Problem.TRANSACTION_CONFLICT,
                    "the database aborted this request's transaction to protect its isolation level; nothing"
                            + " was kept; retry with the same key");
            case STORE_UNAVAILABLE -> new ProblemException(
                    Problem.STORE_UNAVAILABLE,
                    "the idempotency record could not be claimed or read, so nothing was executed; retry with the"
                            + " same key");
            case COMMIT_FAILED -> new ProblemException(
                    Problem.COMMIT_FAILED,
                    "the request could not be committed and nothing of it was kept; retrying with the same key is"
                            + " safe");
            case RECORD_UNREADABLE -> new ProblemException(
                    Problem.RECORD_UNREADABLE,
                    "the response stored for this key cannot be decrypted, so it is not replayed and the request"
                            + " is not executed again; report this to the service's operators, quoting the key");
        };
    }

    /** A keyless request to an operation in {@code REQUIRED}. */
    ProblemException keyRequired(String contract) {
        return new ProblemException(
                Problem.KEY_REQUIRED,
                contract + " requires an " + keyHeader + " header; send a new unique key"
                        + " (such as a UUID) per intended operation, and the same key on every retry of it");
    }

    /** A keyed request with no principal, and no {@code scope-header} configured to name the caller. */
    ProblemException noCaller(String contract) {
        return new ProblemException(
                Problem.AUTHENTICATION_REQUIRED,
                contract + " scopes idempotency keys by the authenticated caller; authenticate and"
                        + " retry with the same key");
    }

    /** A key posted in a form field, by a browser that has no session the key could belong to. */
    ProblemException noSession(String contract) {
        return new ProblemException(
                Problem.SCOPE_REQUIRED,
                contract + " scopes a key sent in a form field by the browser session that rendered the form, and"
                        + " this request has no session; reload the form and submit it again (the page's key field"
                        + " starts a session when it renders)");
    }

    /** A keyed request with no principal whose {@code scope-header} is missing, repeated, blank or too long. */
    ProblemException noCallerInHeader(String contract, String header, int maxLength) {
        return new ProblemException(
                Problem.AUTHENTICATION_REQUIRED,
                contract + " scopes idempotency keys by the caller named in the " + header
                        + " header, which must be sent once, non-blank and at most " + maxLength
                        + " characters long; send the request through the gateway that sets it, or"
                        + " authenticate, and retry with the same key");
    }

    /**
     * The application threw; {@code cause} travels with the problem so that the core can read in it a database's
     * reason, or the container's refusal of a transaction the application ran itself.
     */
    ProblemException applicationFailed(Throwable cause) {
        return new ProblemException(
                Problem.APPLICATION_FAILED,
                "the request failed and nothing of it was kept; retrying with the same key is safe",
                cause);
    }

    /** The application committed, rolled back or began a transaction itself, which the container refused. */
    private static ProblemException managesItsOwnTransactions(String contract, String refusal) {
        return new ProblemException(
                Problem.TRANSACTION_SELF_MANAGED,
                contract + " cannot be made idempotent as it is: its code manages its own database transactions"
                        + " (" + refusal + "), so nothing of this request was kept; retrying will fail the same"
                        + " way; report this to the service's operators");
    }

    /** The application started asynchronous processing. */
    ProblemException asynchronous(String contract) {
        return new ProblemException(
                Problem.ASYNCHRONOUS_RESPONSE,
                contract + " answers asynchronously, which the idempotency filter cannot store; nothing was"
                        + " kept; report this to the service's operators");
    }

    /** The application's response did not fit in {@code max-response-body}. */
    ProblemException responseTooLarge(String contract) {
        return new ProblemException(
                Problem.RESPONSE_TOO_LARGE,
                "the response of " + contract + " is larger than max-response-body (" + maxResponseBodyBytes
                        + " bytes), so it could not be stored and nothing was kept; report this to the service's"
                        + " operators");
    }

    /**
     * A refusal of a request to the operation with this policy, with the hints the settings ask for and, on a 409 or
     * 503, a {@code Retry-After}: a {@code concurrent=reject} operation's 409 says {@code lock-timeout}, the time a
     * duplicate of any other operation would have waited at the server, so that the client's wait covers as long a
     * first request; every other one says {@link #BACKOFF}. Jittered by the key.
     *
     * @param key the request's key as sent, or empty if it sent none
     */
    Reply refusal(OperationPolicy policy, String key, ProblemException problem) {
        Optional<RetryDelay> delay = Optional.empty();
        if (ProblemResponse.retryable(problem.problem())) {
            boolean clientWaits = problem.problem() == Problem.REQUEST_IN_PROGRESS && !policy.waitsForDuplicate();
            delay = Optional.of(RetryDelay.jittered(clientWaits ? lockTimeout : BACKOFF, key));
        }
        return new Reply.Refusal(problem, hints, delay);
    }

    private Reply refusal(OperationPolicy policy, String key, Problem problem, String detail) {
        return refusal(policy, key, new ProblemException(problem, detail));
    }
}
