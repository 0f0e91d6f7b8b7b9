package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.config.OperationPolicy;
import dev.idempotency.core.Decision;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every decision of the core and every refusal of the request path, as the client gets it: the status, the
 * problem type, the outcome it is counted as, and a detail that says what happened and what to do.
 */
class ReplyCatalogueTest {
    private final ReplyCatalogue catalogue =
            new ReplyCatalogue("Idempotency-Key", 2048, Duration.ofSeconds(10), AnswerHints.NONE);
    private final OperationPolicy waiting = new OperationPolicy(
            "debit:v1", Duration.ofDays(1), Duration.ZERO, true, Set.of("teller", "auditor"), Optional.empty());
    private final OperationPolicy rejecting =
            new OperationPolicy("debit:v1", Duration.ofDays(1), Duration.ZERO, false, Set.of(), Optional.empty());
    private final CapturedResponse captured = new CapturedResponse(
            201, Map.of("Content-Type", List.of("application/json")), new byte[] {'{', '}'}, null, false, null);

    private ProblemException refusalFor(Decision<CapturedResponse> decision, OperationPolicy policy) {
        return assertInstanceOf(Reply.Refusal.class, catalogue.replyFor(decision, policy, "k1"))
                .problem();
    }

    private static void assertProblem(
            ProblemException refusal, int status, String slug, Outcome outcome, String... detailMentions) {
        assertEquals(status, refusal.problem().status());
        assertEquals(Problem.TYPE_PREFIX + slug, refusal.problem().type());
        assertEquals(outcome, refusal.problem().outcome());
        for (String mention : detailMentions) {
            assertTrue(refusal.detail().contains(mention), () -> "'" + mention + "' in: " + refusal.detail());
        }
    }

    @Test
    void replaysTheStoredRecord() {
        StoredRecord record = new StoredRecord(
                new RequestResultId("alice", "debit:v1", "k1"),
                "{}",
                new StoredResponse(201, Map.of(), new byte[0]),
                Instant.now(),
                Instant.now().plusSeconds(60));

        Reply reply = catalogue.replyFor(new Decision.Replayed<>(record), waiting, "k1");

        assertSame(record, assertInstanceOf(Reply.Replay.class, reply).record());
        assertEquals(Outcome.REPLAYED, reply.outcome());
    }

    @Test
    void sendsAnExecutedResponseWithItsExpiry() {
        Instant expiry = Instant.now().plusSeconds(3600);

        Reply.Captured reply = assertInstanceOf(
                Reply.Captured.class, catalogue.replyFor(new Decision.Executed<>(captured, expiry), waiting, "k1"));

        assertEquals(Outcome.EXECUTED, reply.outcome());
        assertSame(captured, reply.captured());
        assertEquals(Optional.of(expiry), reply.expiresAt());
    }

    @Test
    void sendsARolledBackResponseWithoutExpiry() {
        Reply.Captured reply = assertInstanceOf(
                Reply.Captured.class, catalogue.replyFor(new Decision.RolledBack<>(captured), waiting, "k1"));

        assertEquals(Outcome.ROLLED_BACK, reply.outcome());
        assertEquals(Optional.empty(), reply.expiresAt());
    }

    @Test
    void refusesADoomedTransactionWith500NamingTheApplicationsStatus() {
        assertProblem(
                refusalFor(new Decision.Doomed<>(captured), waiting),
                500,
                "application-failed",
                Outcome.ROLLED_BACK,
                "answered 201",
                "retrying with the same key is safe");
    }

    @Test
    void rejectsKeyReuseWith422ListingWhereTheRequestsDiffer() {
        ProblemException refusal =
                refusalFor(new Decision.Mismatched<>(List.of("/body/json/amount", "/query/x")), waiting);

        assertProblem(
                refusal,
                422,
                "idempotency-key-reused",
                Outcome.MISMATCH,
                "this Idempotency-Key was already used for a different request to debit:v1",
                "/body/json/amount",
                "send a new key for a new request");
        assertEquals(
                Map.of(WireNames.MISMATCHES_MEMBER, List.of("/body/json/amount", "/query/x")), refusal.extensions());
    }

    @Test
    void refusesALateRetryWith410NamingUntilWhenItWasAnswered() {
        Instant until = Instant.parse("2026-12-01T10:00:00Z");

        assertProblem(
                refusalFor(new Decision.Expired<>(until), waiting),
                410,
                "idempotency-key-expired",
                Outcome.REJECTED,
                "replayed until 2026-12-01T10:00:00Z",
                "nothing was executed",
                "send it with a new key");
    }

    @Test
    void refusesAReplayToACallerWithoutTheRoleWith403NamingTheRoles() {
        assertProblem(
                refusalFor(new Decision.ReplayForbidden<>(), waiting),
                403,
                "replay-forbidden",
                Outcome.REJECTED,
                "[auditor, teller]",
                "ask the service's operators");
    }

    @Test
    void refusesADuplicateInFlightWith409SayingWhetherTheOperationWaits() {
        Decision<CapturedResponse> inProgress = new Decision.Failed<>(Decision.Failure.IN_PROGRESS);

        ProblemException waited = refusalFor(inProgress, waiting);
        ProblemException refused = refusalFor(inProgress, rejecting);

        assertProblem(
                waited,
                409,
                "request-in-progress",
                Outcome.IN_PROGRESS,
                "retry with the same key after the" + " Retry-After delay");
        assertProblem(
                refused,
                409,
                "request-in-progress",
                Outcome.IN_PROGRESS,
                "debit:v1 does not wait for it",
                "retry with the same key after the Retry-After delay");
    }

    @Test
    void answersEveryFailureOfTheCoreWithItsProblem() {
        Map<Decision.Failure, String> slugs = Map.of(
                Decision.Failure.IN_PROGRESS, "request-in-progress",
                Decision.Failure.TRANSACTION_CONFLICT, "transaction-conflict",
                Decision.Failure.WORK_CONFLICT, "transaction-conflict",
                Decision.Failure.STORE_UNAVAILABLE, "store-unavailable",
                Decision.Failure.COMMIT_FAILED, "commit-failed",
                Decision.Failure.RECORD_UNREADABLE, "stored-response-unreadable");
        assertEquals(EnumSet.allOf(Decision.Failure.class), EnumSet.copyOf(slugs.keySet()));
        for (Decision.Failure failure : Decision.Failure.values()) {
            ProblemException refusal = refusalFor(new Decision.Failed<>(failure), waiting);
            assertEquals(
                    Problem.TYPE_PREFIX + slugs.get(failure), refusal.problem().type(), failure.name());
            // Every one says whether anything ran or was kept, and what the client does next.
            assertTrue(
                    refusal.detail().matches(".*nothing (was|of it was) (executed|kept).*|.*not executed again.*"),
                    refusal.detail());
            assertTrue(
                    refusal.detail().contains("retry") || refusal.detail().contains("report this"), refusal.detail());
        }
    }

    @Test
    void tellsAClaimConflictFromAConflictInsideTheApplication() {
        ProblemException claim = refusalFor(new Decision.Failed<>(Decision.Failure.TRANSACTION_CONFLICT), waiting);
        ProblemException work = refusalFor(new Decision.Failed<>(Decision.Failure.WORK_CONFLICT), waiting);

        assertProblem(
                claim,
                503,
                "transaction-conflict",
                Outcome.FAILED,
                "kept aborting the claim of this key",
                "nothing was executed",
                "retry with the same key");
        assertProblem(
                work,
                503,
                "transaction-conflict",
                Outcome.FAILED,
                "aborted this request's transaction",
                "nothing was kept",
                "retry with the same key");
    }

    @Test
    void failuresOfStoreCommitAndDecryptionHaveTheirStatus() {
        assertProblem(
                refusalFor(new Decision.Failed<>(Decision.Failure.STORE_UNAVAILABLE), waiting),
                503,
                "store-unavailable",
                Outcome.FAILED,
                "could not be claimed or read");
        assertProblem(
                refusalFor(new Decision.Failed<>(Decision.Failure.COMMIT_FAILED), waiting),
                503,
                "commit-failed",
                Outcome.FAILED,
                "could not be committed",
                "retrying with the same key is safe");
        assertProblem(
                refusalFor(new Decision.Failed<>(Decision.Failure.RECORD_UNREADABLE), waiting),
                500,
                "stored-response-unreadable",
                Outcome.FAILED,
                "cannot be decrypted",
                "quoting the key");
    }

    @Test
    void aDrainLookUpWithoutARecordIsNotTheCataloguesToAnswer() {
        assertThrows(
                IllegalStateException.class, () -> catalogue.replyFor(new Decision.NotRecorded<>(), waiting, "k1"));
    }

    @Test
    void refusalsOfTheRequestPathNameTheOperationAndWhatToDo() {
        assertProblem(
                catalogue.keyRequired("debit:v1"),
                400,
                "idempotency-key-required",
                Outcome.KEYLESS_REFUSED,
                "debit:v1 requires an Idempotency-Key header",
                "the same key on every retry");
        assertProblem(
                catalogue.noCaller("debit:v1"),
                401,
                "authentication-required",
                Outcome.REJECTED,
                "by the authenticated caller",
                "authenticate and retry with the same key");
        assertProblem(
                catalogue.noCallerInHeader("debit:v1", "X-User", 255),
                401,
                "authentication-required",
                Outcome.REJECTED,
                "named in the X-User header",
                "at most 255 characters",
                "retry with the same key");
        assertProblem(
                refusalFor(new Decision.TransactionControlRefused<>("IJ031019"), waiting),
                500,
                "application-manages-transactions",
                Outcome.ROLLED_BACK,
                "(IJ031019)",
                "report this");
        assertProblem(
                catalogue.asynchronous("debit:v1"),
                500,
                "asynchronous-response",
                Outcome.ROLLED_BACK,
                "debit:v1 answers asynchronously",
                "report this");
        assertProblem(
                catalogue.responseTooLarge("debit:v1"),
                500,
                "response-too-large",
                Outcome.ROLLED_BACK,
                "max-response-body (2048 bytes)",
                "report this");
    }

    @Test
    void anApplicationFailureCarriesItsCauseForTheCoreToRead() {
        IllegalStateException cause = new IllegalStateException("boom");

        ProblemException failed = catalogue.applicationFailed(cause);

        assertProblem(failed, 500, "application-failed", Outcome.ROLLED_BACK, "retrying with the same key is safe");
        assertSame(cause, failed.getCause());
        assertEquals(Set.of(), failed.extensions().keySet());
    }
}
