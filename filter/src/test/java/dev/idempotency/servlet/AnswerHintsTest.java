package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotency.config.OperationPolicy;
import dev.idempotency.config.ProblemErrorMember;
import dev.idempotency.config.RetryHints;
import dev.idempotency.core.Decision;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the filter's answers tell a client's SDK, sent through a response that records them: {@code Retry-After}
 * and {@code retry-after-ms} on every 409 and 503, the {@code retry-hints = sdk} headers on exactly the answers a
 * retry can or cannot change, and the {@code problem-error-member = stripe} member on every problem document.
 */
class AnswerHintsTest {
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<Problem> RETRY_CHANGES = EnumSet.of(
            Problem.REQUEST_IN_PROGRESS,
            Problem.STORE_UNAVAILABLE,
            Problem.COMMIT_FAILED,
            Problem.TRANSACTION_CONFLICT);
    private static final Set<Problem> SDK_DECIDES = EnumSet.of(Problem.APPLICATION_FAILED);
    private static final Set<Problem> ABOUT_THE_KEY = EnumSet.of(
            Problem.KEY_INVALID,
            Problem.KEY_REQUIRED,
            Problem.KEY_REUSED,
            Problem.KEY_EXPIRED,
            Problem.REQUEST_IN_PROGRESS);

    private final StrictProxy proxies = new StrictProxy();
    private final OperationPolicy waiting =
            new OperationPolicy("debit:v1", Duration.ofDays(1), Duration.ZERO, true, Set.of(), Optional.empty());
    private final OperationPolicy rejecting =
            new OperationPolicy("debit:v1", Duration.ofDays(1), Duration.ZERO, false, Set.of(), Optional.empty());
    private final ObjectMapper json = new ObjectMapper();

    private Map<String, String> headers;
    private ByteArrayOutputStream body;

    @AfterEach
    void noOtherMethodWasCalled() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    private static ReplyCatalogue catalogue(RetryHints retryHints, ProblemErrorMember member) {
        return new ReplyCatalogue("Idempotency-Key", 2048, LOCK_TIMEOUT, new AnswerHints(retryHints, member));
    }

    /** Sends the reply and keeps its headers (the last value of each, by lower-case name) and its body. */
    private void send(Reply reply) throws Exception {
        headers = new LinkedHashMap<>();
        body = new ByteArrayOutputStream();
        Map<String, StrictProxy.Answer> answers = new LinkedHashMap<>();
        answers.put("setStatus", args -> null);
        answers.put("setContentType", args -> headers.put("content-type", (String) args[0]));
        answers.put("setHeader", args -> headers.put(((String) args[0]).toLowerCase(), (String) args[1]));
        answers.put("getOutputStream", args -> TestStreams.output(body));
        reply.sendTo(proxies.of(HttpServletResponse.class, answers), "/debits");
    }

    private void sendProblem(ReplyCatalogue catalogue, OperationPolicy operation, Problem problem) throws Exception {
        send(catalogue.refusal(operation, "key-1", new ProblemException(problem, "what to do")));
    }

    private static StoredRecord stored(int status) {
        return new StoredRecord(
                new RequestResultId("alice", "debit:v1", "k1"),
                "{}",
                new StoredResponse(status, Map.of("Content-Type", List.of("application/json")), new byte[] {'{', '}'}),
                Instant.now(),
                Instant.now().plusSeconds(60));
    }

    @Test
    void everyRetryableProblemSaysWhenToRetryAndNoOtherDoes() throws Exception {
        ReplyCatalogue plain = catalogue(RetryHints.NONE, ProblemErrorMember.NONE);
        for (Problem problem : Problem.values()) {
            sendProblem(plain, waiting, problem);

            boolean retryable = problem.status() == 409 || problem.status() == 503;
            assertEquals(retryable, headers.containsKey("retry-after"), problem + ": " + headers);
            assertEquals(retryable, headers.containsKey("retry-after-ms"), problem + ": " + headers);
            assertFalse(headers.containsKey("x-should-retry"), problem + ": " + headers);
            assertFalse(headers.containsKey("stripe-should-retry"), problem + ": " + headers);
            assertFalse(json.readTree(body.toByteArray()).has("error"), problem + " has no error member by default");
        }
    }

    @Test
    void aDuplicateThatWaitedAtTheServerAndEvery503AreToldAboutASecond() throws Exception {
        ReplyCatalogue plain = catalogue(RetryHints.NONE, ProblemErrorMember.NONE);
        for (Problem problem : List.of(
                Problem.REQUEST_IN_PROGRESS,
                Problem.STORE_UNAVAILABLE,
                Problem.COMMIT_FAILED,
                Problem.TRANSACTION_CONFLICT)) {
            sendProblem(plain, waiting, problem);

            long millis = Long.parseLong(headers.get("retry-after-ms"));
            assertTrue(millis >= 1000 && millis <= 1250, problem + ": " + millis);
            assertEquals(Long.toString((millis + 999) / 1000), headers.get("retry-after"), problem.toString());
        }
    }

    @Test
    void aRejectedDuplicateIsToldToWaitTheLockTimeoutItWasNotGivenAtTheServer() throws Exception {
        sendProblem(catalogue(RetryHints.NONE, ProblemErrorMember.NONE), rejecting, Problem.REQUEST_IN_PROGRESS);

        long millis = Long.parseLong(headers.get("retry-after-ms"));
        assertTrue(millis >= 10_000 && millis <= 12_500, "retry-after-ms " + millis);
        assertEquals(Long.toString((millis + 999) / 1000), headers.get("retry-after"));
    }

    @Test
    void theJitterIsTheKeysOwnAndSpreadsDifferentKeys() {
        Set<Duration> delays = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            RetryDelay delay = RetryDelay.jittered(Duration.ofSeconds(1), "key-" + i);
            assertEquals(delay, RetryDelay.jittered(Duration.ofSeconds(1), "key-" + i), "the same key, the same hint");
            assertTrue(delay.delay().toMillis() >= 1000 && delay.delay().toMillis() <= 1250, delay.toString());
            delays.add(delay.delay());
        }
        assertTrue(delays.size() > 10, "20 keys get spread hints: " + delays);
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        assertEquals(1, new RetryDelay(Duration.ofMillis(1)).seconds());
        assertEquals(1, new RetryDelay(Duration.ofMillis(1000)).seconds());
        assertEquals(2, new RetryDelay(Duration.ofMillis(1001)).seconds());
        assertEquals(
                Map.of("Retry-After", List.of("13"), "retry-after-ms", List.of("12500")),
                new RetryDelay(Duration.ofMillis(12_500)).headers());
    }

    @Test
    void sdkHintsSayTrueOnlyWhereARetryCanChangeTheAnswer() throws Exception {
        ReplyCatalogue hinting = catalogue(RetryHints.SDK, ProblemErrorMember.NONE);
        for (Problem problem : Problem.values()) {
            sendProblem(hinting, waiting, problem);

            if (SDK_DECIDES.contains(problem)) {
                assertFalse(headers.containsKey("x-should-retry"), problem + ": " + headers);
                assertFalse(headers.containsKey("stripe-should-retry"), problem + ": " + headers);
            } else {
                String expected = Boolean.toString(RETRY_CHANGES.contains(problem));
                assertEquals(expected, headers.get("x-should-retry"), problem.toString());
                assertEquals(expected, headers.get("stripe-should-retry"), problem.toString());
            }
        }
    }

    @Test
    void aReusedKeySaysFalseAndARejectedDuplicateTrue() throws Exception {
        ReplyCatalogue hinting = catalogue(RetryHints.SDK, ProblemErrorMember.NONE);

        send(hinting.replyFor(new Decision.Mismatched<>(List.of("/body/amount")), waiting, "k1"));
        assertEquals("false", headers.get("x-should-retry"));
        assertEquals("false", headers.get("stripe-should-retry"));

        send(hinting.replyFor(new Decision.Failed<>(Decision.Failure.IN_PROGRESS), rejecting, "k1"));
        assertEquals("true", headers.get("x-should-retry"));
        assertEquals("true", headers.get("stripe-should-retry"));
    }

    @Test
    void aReplayedStored4xxSaysFalseAndAReplayed2xxNothing() throws Exception {
        ReplyCatalogue hinting = catalogue(RetryHints.SDK, ProblemErrorMember.NONE);

        send(hinting.replyFor(new Decision.Replayed<>(stored(404)), waiting, "k1"));
        assertEquals("false", headers.get("x-should-retry"));
        assertEquals("false", headers.get("stripe-should-retry"));
        assertEquals("true", headers.get("idempotent-replayed"));

        send(hinting.replyFor(new Decision.Replayed<>(stored(201)), waiting, "k1"));
        assertFalse(headers.containsKey("x-should-retry"), headers.toString());
        assertFalse(headers.containsKey("stripe-should-retry"), headers.toString());

        send(catalogue(RetryHints.NONE, ProblemErrorMember.NONE)
                .replyFor(new Decision.Replayed<>(stored(404)), waiting, "k1"));
        assertFalse(headers.containsKey("x-should-retry"), "off by default: " + headers);
    }

    @Test
    void aFirstExecutionCarriesNoHint() throws Exception {
        CapturedResponse captured = new CapturedResponse(
                201, Map.of("Content-Type", List.of("application/json")), new byte[] {'{', '}'}, null, false, null);

        send(catalogue(RetryHints.SDK, ProblemErrorMember.STRIPE)
                .replyFor(new Decision.Executed<>(captured, Instant.now().plusSeconds(60)), waiting, "k1"));

        assertFalse(headers.containsKey("x-should-retry"), headers.toString());
        assertFalse(headers.containsKey("stripe-should-retry"), headers.toString());
        assertFalse(headers.containsKey("retry-after"), headers.toString());
    }

    @Test
    void theStripeMemberTypesEveryProblem() throws Exception {
        ReplyCatalogue stripe = catalogue(RetryHints.NONE, ProblemErrorMember.STRIPE);
        for (Problem problem : Problem.values()) {
            sendProblem(stripe, waiting, problem);

            JsonNode document = json.readTree(body.toByteArray());
            String expectedType = ABOUT_THE_KEY.contains(problem)
                    ? "idempotency_error"
                    : problem.status() >= 500 ? "api_error" : "invalid_request_error";
            assertEquals(expectedType, document.path("error").path("type").asText(), problem.toString());
            assertEquals(
                    problem.type(),
                    Problem.TYPE_PREFIX + document.path("error").path("code").asText());
            assertEquals("what to do", document.path("error").path("message").asText(), problem.toString());
            assertEquals(problem.type(), document.path("type").asText(), "the RFC 9457 members stay");
        }
    }

    @Test
    void theStripeMemberOfAReusedKeySitsBesideItsMismatches() throws Exception {
        send(catalogue(RetryHints.NONE, ProblemErrorMember.STRIPE)
                .replyFor(new Decision.Mismatched<>(List.of("/body/amount")), waiting, "k1"));

        JsonNode document = json.readTree(body.toByteArray());
        assertEquals("idempotency_error", document.path("error").path("type").asText());
        assertEquals(
                "idempotency-key-reused", document.path("error").path("code").asText());
        assertEquals(
                document.path("detail").asText(),
                document.path("error").path("message").asText());
        assertEquals("/body/amount", document.path("mismatches").path(0).asText());
        assertEquals(ProblemResponse.CONTENT_TYPE, headers.get("content-type"));
    }
}
