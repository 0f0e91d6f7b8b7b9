package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdempotencyKeyHeaderTest {
    private final StrictProxy proxies = new StrictProxy();
    private final IdempotencyKeyHeader header = new IdempotencyKeyHeader("Idempotency-Key");

    /** A request that has these values for the named header (names compared case-insensitively). */
    private HttpServletRequest request(String name, String... values) {
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.put(name, List.of(values));
        return proxies.of(
                HttpServletRequest.class,
                Map.of(
                        "getHeaders",
                        args -> Collections.enumeration(headers.getOrDefault((String) args[0], List.of()))));
    }

    private HttpServletRequest requestWithKey(String... values) {
        return request("Idempotency-Key", values);
    }

    private ProblemException refusal(String... values) {
        return assertThrows(ProblemException.class, () -> header.read(requestWithKey(values)));
    }

    @AfterEach
    void onlyHeadersWereRead() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void absentHeaderGivesEmpty() throws Exception {
        assertEquals(Optional.empty(), header.read(request("Other-Header", "x")));
    }

    @Test
    void readsABareKey() throws Exception {
        assertEquals(Optional.of("checkout-42"), header.read(requestWithKey("checkout-42")));
    }

    @Test
    void readsTheHeaderItIsConfiguredFor() throws Exception {
        IdempotencyKeyHeader custom = new IdempotencyKeyHeader("X-Request-Key");

        assertEquals(Optional.of("k"), custom.read(request("x-request-key", "k")));
        assertEquals(Optional.empty(), custom.read(requestWithKey("k")));
    }

    @Test
    void quotedSfStringIsTheSameKeyAsTheBareKey() throws Exception {
        assertEquals(header.read(requestWithKey("abc")), header.read(requestWithKey("\"abc\"")));
        assertEquals(Optional.of("abc"), header.read(requestWithKey("\"abc\"")));
    }

    @Test
    void unescapesQuoteAndBackslashInsideAnSfString() throws Exception {
        assertEquals(Optional.of("a\"b"), header.read(requestWithKey("\"a\\\"b\"")));
        assertEquals(Optional.of("a\\b"), header.read(requestWithKey("\"a\\\\b\"")));
    }

    @Test
    void keepsSpacesInsideAnSfString() throws Exception {
        assertEquals(Optional.of("a b"), header.read(requestWithKey("\"a b\"")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"abc", "\"", "\"a\\x\"", "\"abc\\\"", "\"a\"b\"", "\"abc\"def", "\"abc\\"})
    void malformedSfStringIsInvalid(String raw) {
        assertEquals(Problem.KEY_INVALID, refusal(raw).problem());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "   ", "\"\"", "\"   \""})
    void emptyOrBlankKeyIsInvalid(String raw) {
        ProblemException e = refusal(raw);

        assertEquals(Problem.KEY_INVALID, e.problem());
        assertTrue(e.detail().contains("Idempotency-Key"), e.detail());
    }

    @Test
    void keyOf255CharactersIsAccepted() throws Exception {
        String key = "k".repeat(255);

        assertEquals(Optional.of(key), header.read(requestWithKey(key)));
        assertEquals(Optional.of(key), header.read(requestWithKey("\"" + key + "\"")));
    }

    @Test
    void keyOf256CharactersIsInvalid() {
        assertEquals(Problem.KEY_INVALID, refusal("k".repeat(256)).problem());
        assertEquals(Problem.KEY_INVALID, refusal("\"" + "k".repeat(256) + "\"").problem());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ab\u0001c", "a\tb", "abc\u007f", "\u0000", "\"a\u0001\"", "a\nb"})
    void controlCharacterIsInvalid(String raw) {
        assertEquals(Problem.KEY_INVALID, refusal(raw).problem());
    }

    @ParameterizedTest
    @ValueSource(strings = {"clé", "key-€", "\u00a0", "emoji-\uD83D\uDE00", "\"clé\""})
    void nonAsciiIsInvalid(String raw) {
        assertEquals(Problem.KEY_INVALID, refusal(raw).problem());
    }

    @Test
    void acceptsEveryPrintableAsciiCharacter() throws Exception {
        StringBuilder key = new StringBuilder();
        for (char c = 0x21; c <= 0x7E; c++) {
            key.append(c);
        }
        key.append(' ').append('x');

        assertEquals(Optional.of(key.toString()), header.read(requestWithKey(key.toString())));
    }

    @Test
    void headerSentTwiceIsInvalid() {
        ProblemException e = refusal("a", "a");

        assertEquals(Problem.KEY_INVALID, e.problem());
        assertTrue(e.detail().contains("2 times"), e.detail());
    }

    @Test
    void keyInvalidIsA400() {
        assertEquals(400, refusal("").problem().status());
    }
}
