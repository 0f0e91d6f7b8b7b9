package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Proves, from a JUnit 5 test, that one of your endpoints is retry-safe: it sends real HTTP requests to a
 * running server and fails with JUnit's {@link org.opentest4j.AssertionFailedError} when what a client would
 * see, or what your effect probe reads, is not what the idempotency filter promises. The user's guide is
 * {@code docs/testing.md}.
 *
 * <pre>{@code
 * IdempotencyCheck debit = IdempotencyCheck.of(RequestTemplate.post(URI.create(base + "api/accounts/1/debits"))
 *                 .basicAuth("alice", "alice")
 *                 .header("Content-Type", "application/json")
 *                 .body("{\"amount\": 100}"))
 *         .withEffect(() -> balanceOf(1), -100);
 *
 * debit.lostResponseIsReplayed();
 * debit.concurrentDuplicatesExecuteOnce(10);
 * debit.keyReuseWithChangedBodyIsRejected("{\"amount\": 101}");
 * debit.keylessRequestPasses(); // rollout mode OPTIONAL
 * }</pre>
 *
 * <h2>The checks</h2>
 *
 * <table>
 * <caption>What each check sends and asserts</caption>
 * <tr><th>check</th><th>sends</th><th>asserts</th></tr>
 * <tr><td>{@link #lostResponseIsReplayed()}</td><td>the request over a plain socket, reset on the response's
 *     first byte; then two retries with the same key</td><td>one execution once the response began; both
 *     retries are replays with the same status and the same body bytes; still one execution</td></tr>
 * <tr><td>{@link #concurrentDuplicatesExecuteOnce(int)}</td><td>that many copies under one key, at once</td>
 *     <td>exactly one response from an execution, every other one a replay with its status and body; one
 *     execution</td></tr>
 * <tr><td>{@link #keyReuseWithChangedBodyIsRejected(String)}</td><td>the request, then the changed body under
 *     the same key, then the request again</td><td>422 {@value FilterProtocol#PROBLEM_KEY_REUSED} as {@code
 *     application/problem+json}; the original still replays; one execution</td></tr>
 * <tr><td>{@link #keylessRequestIsRefused()}</td><td>the request without a key</td><td>rollout mode {@code
 *     REQUIRED}: 400 {@value FilterProtocol#PROBLEM_KEY_REQUIRED}; no execution</td></tr>
 * <tr><td>{@link #keylessRequestPasses()}</td><td>the request without a key</td><td>rollout mode {@code
 *     OPTIONAL}: a 2xx that is not a replay, with a {@code Deprecation} header; one execution</td></tr>
 * <tr><td>{@link #keylessRequestPassesWithoutDeprecation()}</td><td>the request without a key</td><td>rollout
 *     mode {@code DRAIN} or {@code OFF}: a 2xx that is not a replay, without {@code Deprecation}; one
 *     execution</td></tr>
 * </table>
 *
 * <h2>The effect probe</h2>
 *
 * {@link #withEffect(LongSupplier, long)} takes a probe of what the endpoint changes, such as {@code SELECT
 * count(*)} of the rows it inserts (change {@code 1}) or the balance it debits (change {@code -100}), read from
 * committed data, such as over JDBC. Each check reads it before its first request and after each step, and
 * asserts the number of executions from the distance moved. Without a probe the checks assert only what HTTP
 * shows, which cannot tell a replay from a second execution that answers alike.
 *
 * <h2>Keys</h2>
 *
 * Every check draws one new key from {@link #withKeys(Supplier)} (a random UUID unless told otherwise) and
 * sends it in {@link #withKeyHeader(String)} ({@value FilterProtocol#DEFAULT_KEY_HEADER} unless told otherwise),
 * so checks do not see each other's records and can run in any order against the same endpoint.
 *
 * <p>Immutable and thread-safe: every {@code with} method returns a new check. Run checks of one endpoint one
 * after another, not in parallel, or their effects mix in the probe.
 */
public final class IdempotencyCheck {
    /** Long enough for a duplicate to wait out the filter's default {@code lock-timeout} of 10 s. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final RequestTemplate request;
    private final Effect effect;
    private final String keyHeader;
    private final Supplier<String> keys;
    private final Duration timeout;
    private final boolean requestInProgressAllowed;
    private final RequestSender sender;

    private IdempotencyCheck(
            RequestTemplate request,
            Effect effect,
            String keyHeader,
            Supplier<String> keys,
            Duration timeout,
            boolean requestInProgressAllowed) {
        this.request = request;
        this.effect = effect;
        this.keyHeader = keyHeader;
        this.keys = keys;
        this.timeout = timeout;
        this.requestInProgressAllowed = requestInProgressAllowed;
        this.sender = new RequestSender(timeout);
    }

    /**
     * The checks of the endpoint {@code request} goes to, with no effect probe, a random UUID per check in
     * {@value FilterProtocol#DEFAULT_KEY_HEADER}, and a timeout of 30 s per request.
     *
     * @throws IllegalArgumentException if {@code request} already has a {@value FilterProtocol#DEFAULT_KEY_HEADER}
     *     header
     */
    public static IdempotencyCheck of(RequestTemplate request) {
        Objects.requireNonNull(request, "request");
        return new IdempotencyCheck(
                        request,
                        Effect.unobserved(),
                        FilterProtocol.DEFAULT_KEY_HEADER,
                        () -> UUID.randomUUID().toString(),
                        DEFAULT_TIMEOUT,
                        false)
                .withKeyHeader(FilterProtocol.DEFAULT_KEY_HEADER);
    }

    /**
     * These checks, also asserting how often the endpoint executed, from {@code probe}.
     *
     * @param probe reads the endpoint's effect from committed data, such as a row count or a balance
     * @param changePerExecution how far one execution moves the probe, such as {@code 1} or {@code -100}
     * @throws IllegalArgumentException if {@code changePerExecution} is 0, which cannot tell one execution from two
     */
    public IdempotencyCheck withEffect(LongSupplier probe, long changePerExecution) {
        Objects.requireNonNull(probe, "probe");
        if (changePerExecution == 0) {
            throw new IllegalArgumentException("changePerExecution must not be 0: a probe that one execution does"
                    + " not move cannot tell one execution from two");
        }
        return new IdempotencyCheck(
                request, Effect.of(probe, changePerExecution), keyHeader, keys, timeout, requestInProgressAllowed);
    }

    /**
     * These checks, sending the key in {@code name}: the filter's {@code key-header} setting.
     *
     * @throws IllegalArgumentException if {@code name} is not a header the kit may set, or the request template
     *     already has it
     */
    public IdempotencyCheck withKeyHeader(String name) {
        RequestTemplate.requireSettableHeaderName(name);
        if (request.hasHeader(name)) {
            throw new IllegalArgumentException("the request template must not carry the " + name + " header: each"
                    + " check sends a key of its own there");
        }
        return new IdempotencyCheck(request, effect, name, keys, timeout, requestInProgressAllowed);
    }

    /** These checks, each drawing its key from {@code keys} instead of a random UUID. */
    public IdempotencyCheck withKeys(Supplier<String> keys) {
        Objects.requireNonNull(keys, "keys");
        return new IdempotencyCheck(request, effect, keyHeader, keys, timeout, requestInProgressAllowed);
    }

    /**
     * These checks, giving each request {@code timeout} for its whole response.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public IdempotencyCheck withTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeout);
        }
        return new IdempotencyCheck(request, effect, keyHeader, keys, timeout, requestInProgressAllowed);
    }

    /**
     * These checks, accepting in {@link #concurrentDuplicatesExecuteOnce(int)} duplicates that are answered 409
     * {@value FilterProtocol#PROBLEM_REQUEST_IN_PROGRESS}, as long as each one replays when retried afterwards.
     * The filter sends that only to a duplicate that waited longer than its {@code lock-timeout}; allow it for
     * an endpoint slower than that, or a deployment with a short {@code lock-timeout}.
     */
    public IdempotencyCheck withRequestInProgressAllowed() {
        return new IdempotencyCheck(request, effect, keyHeader, keys, timeout, true);
    }

    /**
     * The response to a keyed request is lost after it began, and the client retries: sends the request over a
     * plain socket and resets the connection on the response's first byte, then retries twice with the same key.
     * Asserts that the effect moved by one execution by the time the response began (the response is sent only
     * after the commit), that both retries are replays ({@value FilterProtocol#REPLAYED_HEADER}{@code : true})
     * with the same status and byte for byte the same body, and that the effect still moved by one execution.
     *
     * @throws IllegalStateException if the template's URI is https: the lost response is made on a plain socket
     */
    public void lostResponseIsReplayed() {
        if (!request.uri().getScheme().equalsIgnoreCase("http")) {
            throw new IllegalStateException("the lost-response check resets a plain HTTP/1.1 socket and supports"
                    + " http only; send it to the server's http listener, was " + request.uri());
        }
        String key = nextKey();
        long before = effect.read();

        new LostResponseSender(timeout).send(request, keyHeader, key);
        effect.assertExecutions(1, before, "the request whose response was lost" + with(key));

        Reply retry = sender.send(request, keyHeader, key);
        assertReplay(retry, "the retry after the lost response", key, before);
        Reply again = sender.send(request, keyHeader, key);
        assertReplay(again, "the second retry after the lost response", key, before);
        assertTrue(
                again.sameStatusAndBody(retry),
                () -> request + with(key) + ": two replays differ: " + retry + " and then " + again);
        effect.assertExecutions(1, before, "two retries of a lost response" + with(key));
    }

    /**
     * {@code copies} clients send the same keyed request at the same time: asserts that exactly one response
     * comes from an execution (it has no {@value FilterProtocol#REPLAYED_HEADER} header), that every other one
     * is a replay with the same status and byte for byte the same body, and that the effect moved by one
     * execution. A 409 {@value FilterProtocol#PROBLEM_REQUEST_IN_PROGRESS} fails the check unless {@link
     * #withRequestInProgressAllowed()}; then each such duplicate is retried afterwards and must replay.
     *
     * <p>The copies leave together on connections of their own; whether they overlap on the server depends on
     * how long the endpoint runs. A fast endpoint may serve them one after another, which still proves that
     * each duplicate replays, but not that it waited.
     *
     * @throws IllegalArgumentException if {@code copies} is less than 2
     */
    public void concurrentDuplicatesExecuteOnce(int copies) {
        if (copies < 2) {
            throw new IllegalArgumentException("copies must be at least 2 to be duplicates, was " + copies);
        }
        String key = nextKey();
        long before = effect.read();

        List<Reply> replies = sender.sendAtOnce(request, keyHeader, key, copies);

        List<Reply> inProgress = new ArrayList<>();
        List<Reply> executions = new ArrayList<>();
        List<Reply> replays = new ArrayList<>();
        for (Reply reply : replies) {
            if (reply.isProblem(409, FilterProtocol.PROBLEM_REQUEST_IN_PROGRESS)) {
                inProgress.add(reply);
            } else if (reply.isReplay()) {
                replays.add(reply);
            } else {
                executions.add(reply);
            }
        }
        String context = copies + " concurrent duplicates of " + request + with(key);
        if (!inProgress.isEmpty() && !requestInProgressAllowed) {
            fail(context + ": " + inProgress.size() + " were answered 409 request-in-progress, which means they"
                    + " waited longer than the filter's lock-timeout; raise it, or accept this with"
                    + " withRequestInProgressAllowed(). All replies: " + summary(replies));
        }
        assertEquals(
                1,
                executions.size(),
                () -> context + ": exactly one reply must come from an execution (no " + FilterProtocol.REPLAYED_HEADER
                        + " header)." + effect.movedSince(before) + " All replies: " + summary(replies));
        Reply executed = executions.get(0);
        for (Reply replay : replays) {
            assertTrue(
                    replay.sameStatusAndBody(executed),
                    () -> context + ": a replay differs from the execution's response " + executed + ": " + replay);
        }
        for (int i = 0; i < inProgress.size(); i++) {
            Reply retry = sender.send(request, keyHeader, key);
            assertReplay(retry, "the retry of a duplicate answered request-in-progress", key, before);
            assertTrue(
                    retry.sameStatusAndBody(executed),
                    () -> context + ": the retry of a duplicate answered request-in-progress differs from the"
                            + " execution's response " + executed + ": " + retry);
        }
        effect.assertExecutions(1, before, context);
    }

    /**
     * The same key with a different body: sends the request, then {@code changedBody} under the same key, then
     * the request again. Asserts that the second answer is 422 {@value FilterProtocol#PROBLEM_KEY_REUSED} with
     * content type {@value FilterProtocol#PROBLEM_CONTENT_TYPE}, that the third is a replay of the first (the
     * record is unchanged), and that the effect moved by one execution only.
     *
     * @throws IllegalArgumentException if {@code changedBody} equals the template's body
     */
    public void keyReuseWithChangedBodyIsRejected(String changedBody) {
        Objects.requireNonNull(changedBody, "changedBody");
        if (changedBody.equals(request.body())) {
            throw new IllegalArgumentException(
                    "changedBody must differ from the template's body, was the same: " + changedBody);
        }
        String key = nextKey();
        long before = effect.read();

        Reply original = sender.send(request, keyHeader, key);
        effect.assertExecutions(1, before, "the original request" + with(key));
        Reply reused = sender.send(request.body(changedBody), keyHeader, key);
        assertTrue(
                reused.isProblem(422, FilterProtocol.PROBLEM_KEY_REUSED),
                () -> request + with(key) + ": the changed body " + changedBody + " must be refused with 422 "
                        + FilterProtocol.PROBLEM_KEY_REUSED + " (" + FilterProtocol.PROBLEM_CONTENT_TYPE + "), was: "
                        + reused + ". The original request was answered: " + original + "."
                        + effect.movedSince(before));
        effect.assertExecutions(1, before, "the refused request with the changed body" + with(key));
        Reply again = sender.send(request, keyHeader, key);
        assertReplay(again, "the original request sent again after the refusal", key, before);
        assertTrue(
                again.sameStatusAndBody(original),
                () -> request + with(key) + ": the replay differs from the original response " + original + ": "
                        + again);
    }

    /**
     * Rollout mode {@code REQUIRED}: sends the request without a key, and asserts that it is answered 400
     * {@value FilterProtocol#PROBLEM_KEY_REQUIRED} ({@value FilterProtocol#PROBLEM_CONTENT_TYPE}) and that the
     * effect did not move.
     */
    public void keylessRequestIsRefused() {
        long before = effect.read();
        Reply keyless = sender.send(request, keyHeader, null);
        assertTrue(
                keyless.isProblem(400, FilterProtocol.PROBLEM_KEY_REQUIRED),
                () -> "keyless " + request + ": rollout mode REQUIRED refuses it with 400 "
                        + FilterProtocol.PROBLEM_KEY_REQUIRED + ", was: " + keyless + "." + effect.movedSince(before));
        effect.assertExecutions(0, before, "the refused keyless " + request);
    }

    /**
     * Rollout mode {@code OPTIONAL}: sends the request without a key, and asserts that it succeeded (2xx), is no
     * replay, carries a {@value FilterProtocol#DEPRECATION_HEADER} header, and moved the effect by one execution.
     */
    public void keylessRequestPasses() {
        long before = effect.read();
        Reply keyless = assertKeylessExecuted(before);
        assertTrue(
                keyless.header(FilterProtocol.DEPRECATION_HEADER).isPresent(),
                () -> "keyless " + request + ": rollout mode OPTIONAL announces that keys will be required with a "
                        + FilterProtocol.DEPRECATION_HEADER + " header, but the response has none: " + keyless);
    }

    /**
     * Rollout mode {@code DRAIN} or {@code OFF}: sends the request without a key, and asserts that it succeeded
     * (2xx), is no replay, has no {@value FilterProtocol#DEPRECATION_HEADER} header, and moved the effect by one
     * execution.
     */
    public void keylessRequestPassesWithoutDeprecation() {
        long before = effect.read();
        Reply keyless = assertKeylessExecuted(before);
        assertTrue(
                keyless.header(FilterProtocol.DEPRECATION_HEADER).isEmpty(),
                () -> "keyless " + request + ": rollout modes DRAIN and OFF send no "
                        + FilterProtocol.DEPRECATION_HEADER + " header (OPTIONAL does), but the response has one: "
                        + keyless);
    }

    private Reply assertKeylessExecuted(long before) {
        Reply keyless = sender.send(request, keyHeader, null);
        assertTrue(
                keyless.isSuccess() && !keyless.isReplay(),
                () -> "keyless " + request + ": must pass and execute with a 2xx that is no replay, was: " + keyless
                        + "." + effect.movedSince(before));
        effect.assertExecutions(1, before, "the keyless " + request);
        return keyless;
    }

    private void assertReplay(Reply reply, String which, String key, long before) {
        assertTrue(
                reply.isReplay(),
                () -> request + with(key) + ": " + which + " must be a replay (" + FilterProtocol.REPLAYED_HEADER
                        + ": true), but the endpoint answered without it, as an execution does: " + reply + "."
                        + effect.movedSince(before));
    }

    private String nextKey() {
        String key = keys.get();
        if (key == null || key.isBlank() || !key.chars().allMatch(c -> c >= 0x20 && c <= 0x7E)) {
            throw new IllegalStateException("the key supplier must return a non-blank printable ASCII key, returned "
                    + (key == null ? "null" : "'" + key + "'"));
        }
        return key;
    }

    private String with(String key) {
        return " with " + keyHeader + " " + key;
    }

    private static String summary(List<Reply> replies) {
        return replies.stream().map(Reply::toString).collect(Collectors.joining(" | "));
    }
}
