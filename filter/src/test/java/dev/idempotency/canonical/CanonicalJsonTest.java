package dev.idempotency.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalJsonTest {

    private static Optional<JsonNode> parse(String json) {
        return CanonicalJson.parse(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static String canonical(String json) {
        return CanonicalJson.write(parse(json).orElseThrow(() -> new AssertionError("not parsed: " + json)));
    }

    // Member order and whitespace

    @Test
    void memberOrderAndWhitespaceDoNotChangeOutput() {
        String compact = canonical("{\"amount\":100,\"memo\":\"a\"}");
        String reordered = canonical("{ \"memo\":\"a\", \"amount\":100 }");
        String spread = canonical("\n{\t\"memo\" :\r\n \"a\" ,\n  \"amount\" : 100\n}\n");

        assertEquals("{\"amount\":100,\"memo\":\"a\"}", compact);
        assertEquals(compact, reordered);
        assertEquals(compact, spread);
    }

    @Test
    void sortsNestedObjectsAndKeepsArrayOrder() {
        String text =
                canonical("{\"b\": [3, 1, {\"z\": 1, \"y\": [ ]}], \"a\": {\"d\": null, \"c\": true, \"e\": false}}");

        assertEquals("{\"a\":{\"c\":true,\"d\":null,\"e\":false},\"b\":[3,1,{\"y\":[],\"z\":1}]}", text);
    }

    @Test
    void arrayElementOrderIsSignificant() {
        assertNotEquals(canonical("[1,2]"), canonical("[2,1]"));
    }

    @Test
    void writesScalarsAtTopLevel() {
        assertEquals("\"x\"", canonical(" \"x\" "));
        assertEquals("true", canonical("true"));
        assertEquals("null", canonical("null"));
        assertEquals("{}", canonical("{ }"));
    }

    // Numbers

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "100, 100",
        "100.0, 100",
        "1e2, 100",
        "1E2, 100",
        "1E+2, 100",
        "10000e-2, 100",
        "-0, 0",
        "-0.0, 0",
        "0e10, 0",
        "-100.50, -100.5",
        "0.000001, 0.000001",
        "1e-6, 0.000001",
        "1e-7, 1e-7",
        "1.5e-7, 1.5e-7",
        "0.00000012, 1.2e-7",
        "1e20, 100000000000000000000",
        "1e21, 1e+21",
        "-1e21, -1e+21",
        "1.5e21, 1.5e+21",
        "0.1, 0.1",
        "123.4500, 123.45",
    })
    void printsOneSpellingPerNumber(String json, String expected) {
        assertEquals(expected, canonical(json));
    }

    @Test
    void keepsEveryDigitOfBigIntegers() {
        // Above 2^53 a double would round; the canonical form must not.
        assertEquals("9007199254740993", canonical("9007199254740993"));
        assertEquals("12345678901234567890", canonical("12345678901234567890"));
        // Exponent 29 is outside [-6, 20], so scientific notation, but with every digit kept.
        assertEquals("1.2345678901234567890123456789e+29", canonical("123456789012345678901234567890"));
        assertNotEquals(canonical("123456789012345678901234567890"), canonical("123456789012345678901234567891"));
    }

    @Test
    void keepsEveryDigitOfDecimalsThatADoubleWouldRound() {
        assertEquals("0.10000000000000000001", canonical("0.10000000000000000001"));
        assertNotEquals(canonical("0.1"), canonical("0.10000000000000000001"));
    }

    @Test
    void equalValuesWithDifferentSpellingsInsideDocumentsAreEqual() {
        assertEquals(canonical("{\"amount\":100}"), canonical("{\"amount\":1.00e2}"));
        assertNotEquals(canonical("{\"amount\":100}"), canonical("{\"amount\":101}"));
    }

    @Test
    void hugeExponentsDoNotExplode() {
        // Plain notation here would mean hundreds of millions of zeros.
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertEquals("1e+400", canonical("1e400"));
            assertEquals("[-2.5e-400]", canonical("[-2.5e-400]"));
            assertEquals("1e+1000000", canonical("1e1000000"));
            // Beyond ±1,000,000 the body is not JSON for identity: it becomes opaque bytes, quickly.
            assertTrue(parse("1e999999999").isEmpty());
            assertTrue(parse("1e-999999999").isEmpty());
        });
    }

    @Test
    void longIntegerLiteralAndExponentSpellingAgree() {
        assertEquals("1e+400", canonical("1" + "0".repeat(400)));
    }

    @Test
    void exponentBeyondBigDecimalRangeMakesParseEmptyInsteadOfThrowing() {
        for (String json : List.of("1e2147483648", "{\"amount\":1e2147483648}", "[1e-9999999999]")) {
            Optional<JsonNode> parsed = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> parse(json));
            assertTrue(parsed.isEmpty(), json);
        }
    }

    @Test
    void numbersWhoseCanonicalSpellingCouldNotBeReadBackAreNotJson() {
        // 10e2147483647 would be written 1e+2147483648, beyond what a BigDecimal reads.
        assertTrue(parse("[10e2147483647]").isEmpty());
        assertTrue(parse("[1e1000001]").isEmpty());
        String written = canonical("[1e1000000]");
        assertEquals(written, CanonicalJson.write(CanonicalJson.parseCanonical(written)));
    }

    // Strings

    @Test
    void escapesQuoteBackslashAndTheShortControlEscapes() {
        String text = canonical("\"q\\\" b\\\\ \\b \\f \\n \\r \\t\"");

        assertEquals("\"q\\\" b\\\\ \\b \\f \\n \\r \\t\"", text);
    }

    @Test
    void escapesOtherControlCharactersAsLowerCaseUnicodeEscapes() {
        String text = canonical("\"\\u0000\\u0001\\u000B\\u000e\\u001F\"");

        assertEquals("\"\\u0000\\u0001\\u000b\\u000e\\u001f\"", text);
    }

    @Test
    void writesNonAsciiSolidusAndDeleteLiterally() {
        String text = canonical("\"\\u00e9\\u20AC\\ud83d\\ude00\\/\\u007f\\u2028\"");

        assertEquals("\"é€\uD83D\uDE00/\u007f\u2028\"", text);
    }

    @Test
    void matchesTheStringExampleOfRfc8785() {
        // RFC 8785 section 3.2.2.2
        String text = canonical("\"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\"");

        assertEquals("\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"", text);
    }

    @Test
    void escapesMemberNamesLikeValues() {
        assertEquals("{\"a\\nb\":1,\"a\\\"b\":2}", canonical("{\"a\\\"b\":2,\"a\\nb\":1}"));
    }

    // Not JSON for this purpose

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"a\":1,\"a\":2}",
                "{\"a\":1,\"a\":1}",
                "{\"outer\":{\"x\":1,\"y\":2,\"x\":3}}",
                "[{\"k\":true,\"k\":false}]"
            })
    void duplicateMemberNamesMakeParseEmpty(String json) {
        assertTrue(parse(json).isEmpty(), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1} x", "{\"a\":1}}", "{} {}", "[1] [2]", "1 2", "\"a\" ,"})
    void trailingContentMakesParseEmpty(String json) {
        assertTrue(parse(json).isEmpty(), json);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "{", "{\"a\":}", "{'a':1}", "[1,]", "NaN", "01"})
    void malformedDocumentsMakeParseEmpty(String json) {
        assertTrue(parse(json).isEmpty(), json);
    }

    @Test
    void invalidUtf8MakesParseEmpty() {
        byte[] latin1 = {'"', (byte) 0xE9, '"'};

        assertTrue(CanonicalJson.parse(new ByteArrayInputStream(latin1)).isEmpty());
    }

    // Sort order

    @Test
    void sortsObjectMembersByUtf16CodeUnits() {
        // The example of RFC 8785 section 3.2.3; the emoji's surrogates (0xD83D) sort before U+FB33, which a
        // code point order would reverse.
        String json = "{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\","
                + " \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\", \"1\": \"One\","
                + " \"\\ud83d\\ude00\": \"Emoji: Grinning Face\", \"\\u0080\": \"Control\","
                + " \"\\u00f6\": \"Latin Small Letter O With Diaeresis\", \"\\u05d1\": \"Hebrew Letter Bet\"}";

        String text = canonical(json);

        List<String> values = new ArrayList<>();
        CanonicalJson.parseCanonical(text).elements().forEachRemaining(value -> values.add(value.textValue()));
        assertEquals(
                List.of(
                        "Carriage Return",
                        "One",
                        "Control",
                        "Latin Small Letter O With Diaeresis",
                        "Hebrew Letter Bet",
                        "Euro Sign",
                        "Emoji: Grinning Face",
                        "Hebrew Letter Dalet With Dagesh"),
                values);
        assertTrue(text.startsWith("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\""), text);
    }

    @Test
    void sortsUpperCaseBeforeLowerCaseAndShorterPrefixFirst() {
        assertEquals("{\"B\":1,\"a\":2,\"aa\":3,\"b\":4}", canonical("{\"b\":4,\"aa\":3,\"a\":2,\"B\":1}"));
    }
}
