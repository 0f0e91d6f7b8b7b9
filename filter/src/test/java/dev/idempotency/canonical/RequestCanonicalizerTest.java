package dev.idempotency.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotency.buffer.SegmentedBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RequestCanonicalizerTest {
    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded";

    private final RequestCanonicalizer canonicalizer = new RequestCanonicalizer();

    private String text(String contentType, String body) {
        return text(contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    private String text(String contentType, byte[] body) {
        return canonicalizer
                .canonicalize("POST", "debit:v1", "/api/accounts/1/debits", null, contentType, body)
                .text();
    }

    private static JsonNode tree(String text) throws Exception {
        return new ObjectMapper().readTree(text);
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    // JSON bodies

    @Test
    void jsonIdentityIsIndependentOfMemberOrderAndWhitespace() {
        String first = text(JSON, "{\"amount\":100,\"memo\":\"a\"}");
        String second = text(JSON, "{ \"memo\":\"a\",\n \"amount\":100 }");

        assertEquals(first, second);
    }

    @Test
    void jsonIdentityIsIndependentOfNumberSpelling() {
        assertEquals(text(JSON, "{\"amount\":100}"), text(JSON, "{\"amount\":1e2}"));
    }

    @Test
    void differentJsonValuesGiveDifferentIdentities() {
        assertNotEquals(text(JSON, "{\"amount\":100}"), text(JSON, "{\"amount\":101}"));
    }

    @Test
    void storesJsonBodiesAsCanonicalJsonUnderJson() throws Exception {
        JsonNode body = tree(text(JSON, "{\"memo\":\"a\",\"amount\":100}")).get("body");

        assertEquals("{\"json\":{\"amount\":100,\"memo\":\"a\"}}", body.toString());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "application/vnd.x+json",
                "application/merge-patch+json",
                "Application/JSON",
                "application/json; charset=UTF-8",
                "application/json;charset=iso-8859-1",
                "application/vnd.x+json; charset=\"utf-8\""
            })
    void treatsJsonMediaTypesAlikeIgnoringParametersAndCase(String contentType) {
        assertEquals(text(JSON, "{\"b\":1,\"a\":2}"), text(contentType, "{\"a\":2, \"b\":1}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/json", "application/jsonx", "text/plain"})
    void doesNotTreatOtherMediaTypesAsJson(String contentType) throws Exception {
        JsonNode body = tree(text(contentType, "{\"a\":1}")).get("body");

        assertTrue(body.has("sha256"), body.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"amount\":", "{\"a\":1,\"a\":2}", "{\"a\":1} trailing", "not json"})
    void malformedJsonBecomesMediaTypeAndSha256OfTheBytes(String json) throws Exception {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);

        JsonNode body = tree(text("application/json; charset=UTF-8", bytes)).get("body");

        assertEquals("application/json;charset=utf-8", body.get("mediaType").textValue());
        assertEquals(sha256(bytes), body.get("sha256").textValue());
        assertEquals(2, body.size());
    }

    // Form bodies

    @Test
    void formPairsAreSortedByName() throws Exception {
        String text = text(FORM, "b=2&a=1");

        assertEquals(text(FORM, "a=1&b=2"), text);
        assertEquals(
                "[[\"a\",\"1\"],[\"b\",\"2\"]]",
                tree(text).get("body").get("form").toString());
    }

    @Test
    void formPairsWithTheSameNameAreSortedByValue() throws Exception {
        String text = text(FORM, "a=2&a=1&flag");

        assertEquals(
                "[[\"a\",\"1\"],[\"a\",\"2\"],[\"flag\",\"\"]]",
                tree(text).get("body").get("form").toString());
    }

    @Test
    void formPairsArePercentDecoded() {
        assertEquals(text(FORM, "a=A"), text(FORM, "a=%41"));
        assertEquals(text(FORM, "memo=x y"), text(FORM, "memo=x+y"));
        assertEquals(text(FORM, "memo=x y"), text(FORM, "m%65mo=x%20y"));
    }

    @Test
    void formCharsetParameterIsUsedForDecoding() {
        assertEquals(text(FORM + "; charset=UTF-8", "memo=%C3%A9"), text(FORM + "; charset=ISO-8859-1", "memo=%E9"));
    }

    @Test
    void differentFormValuesGiveDifferentIdentities() {
        assertNotEquals(text(FORM, "amount=100"), text(FORM, "amount=101"));
    }

    @Test
    void formWithMalformedEscapeBecomesSha256OfTheBytes() throws Exception {
        byte[] bytes = "a=%zz".getBytes(StandardCharsets.US_ASCII);

        JsonNode body = tree(text(FORM, bytes)).get("body");

        assertEquals(FORM, body.get("mediaType").textValue());
        assertEquals(sha256(bytes), body.get("sha256").textValue());
    }

    @Test
    void formBodiesWithDifferentUndecodableBytesGetDifferentIdentities() {
        assertNotEquals(text(FORM, "memo=%E9"), text(FORM, "memo=%FF"));
        assertNotEquals(text(FORM, new byte[] {'m', '=', (byte) 0xE9}), text(FORM, new byte[] {'m', '=', (byte) 0xFF}));
    }

    // Other bodies

    @Test
    void otherContentTypesAreIdentifiedBySha256OfTheExactBytes() throws Exception {
        byte[] bytes = {0, 1, 2, (byte) 0xFF};

        JsonNode body = tree(text("application/octet-stream", bytes)).get("body");

        assertEquals("application/octet-stream", body.get("mediaType").textValue());
        assertEquals(sha256(bytes), body.get("sha256").textValue());
    }

    @Test
    void differentBytesOfOtherContentTypesDiffer() {
        assertNotEquals(text("text/plain", "hello"), text("text/plain", "hello "));
        assertEquals(text("text/plain", "hello"), text("text/plain", "hello"));
    }

    @Test
    void opaqueMediaTypeIsLowerCasedWithoutSpaces() throws Exception {
        JsonNode body = tree(text("Text/Plain; Charset=UTF-8", "hello")).get("body");

        assertEquals("text/plain;charset=utf-8", body.get("mediaType").textValue());
    }

    @Test
    void bodyWithoutContentTypeHasEmptyMediaType() throws Exception {
        JsonNode body = tree(text(null, "hello")).get("body");

        assertEquals("", body.get("mediaType").textValue());
    }

    @ParameterizedTest
    @ValueSource(strings = {JSON, FORM, "text/plain"})
    void emptyBodyIsNull(String contentType) throws Exception {
        assertTrue(tree(text(contentType, new byte[0])).get("body").isNull());
    }

    @Test
    void emptyBodyWithoutContentTypeIsNull() throws Exception {
        assertTrue(tree(text(null, new byte[0])).get("body").isNull());
    }

    // Query, method, operation, path

    private String withQuery(String query) {
        return canonicalizer
                .canonicalize("POST", "debit:v1", "/p", query, JSON, "{}".getBytes(StandardCharsets.UTF_8))
                .text();
    }

    @Test
    void queryPairsAreSorted() throws Exception {
        assertEquals(withQuery("a=1&b=2"), withQuery("b=2&a=1"));
        assertEquals("a=1&b=2", tree(withQuery("b=2&a=1")).get("query").textValue());
    }

    @Test
    void queryPairsAreNotDecoded() {
        assertNotEquals(withQuery("a=A"), withQuery("a=%41"));
    }

    @Test
    void missingAndEmptyQueryAreTheSame() throws Exception {
        assertEquals(withQuery(null), withQuery(""));
        assertEquals("", tree(withQuery(null)).get("query").textValue());
    }

    @Test
    void differentQueryValuesDiffer() {
        assertNotEquals(withQuery("a=1"), withQuery("a=2"));
    }

    @Test
    void recordsMethodOperationAndPath() throws Exception {
        JsonNode request = tree(canonicalizer
                .canonicalize("PUT", "credit:v2", "/api/x", null, null, new byte[0])
                .text());

        assertEquals("PUT", request.get("method").textValue());
        assertEquals("credit:v2", request.get("operation").textValue());
        assertEquals("/api/x", request.get("path").textValue());
    }

    @Test
    void differentOperationPathOrMethodGiveDifferentText() {
        byte[] body = "{\"amount\":100}".getBytes(StandardCharsets.UTF_8);
        String base = canonicalizer
                .canonicalize("POST", "debit:v1", "/api/accounts/1/debits", null, JSON, body)
                .text();

        assertNotEquals(
                base,
                canonicalizer
                        .canonicalize("POST", "debit:v2", "/api/accounts/1/debits", null, JSON, body)
                        .text());
        assertNotEquals(
                base,
                canonicalizer
                        .canonicalize("POST", "debit:v1", "/api/accounts/2/debits", null, JSON, body)
                        .text());
        assertNotEquals(
                base,
                canonicalizer
                        .canonicalize("PUT", "debit:v1", "/api/accounts/1/debits", null, JSON, body)
                        .text());
    }

    @Test
    void sameJsonBodyAsJsonAndAsOpaqueBytesDiffer() {
        assertNotEquals(text(JSON, "{\"a\":1}"), text("text/plain", "{\"a\":1}"));
    }

    // CanonicalRequest.differencesFrom

    private CanonicalRequest json(String body) {
        return canonicalizer.canonicalize(
                "POST", "debit:v1", "/api/accounts/1/debits", null, JSON, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void differencesNameTheChangedJsonMember() {
        CanonicalRequest first = json("{\"amount\":100,\"memo\":\"a\"}");
        CanonicalRequest retry = json("{\"memo\":\"a\",\"amount\":101}");

        assertEquals(List.of("/body/json/amount"), retry.differencesFrom(first.text()));
        assertEquals(List.of("/body/json/amount"), first.differencesFrom(retry.text()));
    }

    @Test
    void differencesAreEmptyForEqualRequests() {
        CanonicalRequest first = json("{\"amount\":100,\"memo\":\"a\"}");
        CanonicalRequest retry = json("{ \"memo\": \"a\", \"amount\": 100.0 }");

        assertEquals(first, retry);
        assertEquals(List.of(), retry.differencesFrom(first.text()));
    }

    @Test
    void differencesNameAddedRemovedAndNestedMembers() {
        CanonicalRequest first = json("{\"amount\":100,\"items\":[1,2],\"a/b\":{\"x~y\":1}}");
        CanonicalRequest retry = json("{\"amount\":100,\"items\":[1,3],\"a/b\":{\"x~y\":2},\"memo\":\"new\"}");

        assertEquals(
                List.of("/body/json/a~1b/x~0y", "/body/json/items/1", "/body/json/memo"),
                retry.differencesFrom(first.text()));
    }

    @Test
    void differencesNameTheWholeArrayWhenItsLengthChanged() {
        assertEquals(
                List.of("/body/json/items"),
                json("{\"items\":[1,2,3]}")
                        .differencesFrom(json("{\"items\":[1,2]}").text()));
    }

    @Test
    void differencesNameThePathAndQuery() {
        byte[] body = new byte[0];
        CanonicalRequest first = canonicalizer.canonicalize("POST", "debit:v1", "/a/1", "x=1", null, body);
        CanonicalRequest retry = canonicalizer.canonicalize("POST", "debit:v1", "/a/2", "x=2", null, body);

        assertEquals(List.of("/path", "/query"), retry.differencesFrom(first.text()));
    }

    @Test
    void differencesWorkForBodiesWithNumbersTooLargeForJson() {
        // Such a body is opaque (a SHA-256 of its bytes), so the 422 can only say that the body differs.
        CanonicalRequest first = json("{\"amount\":10e2147483647,\"memo\":\"a\"}");
        CanonicalRequest retry = json("{\"amount\":10e2147483647,\"memo\":\"b\"}");

        assertEquals(List.of("/body/sha256"), retry.differencesFrom(first.text()));
    }

    private CanonicalRequest form(String body) {
        return canonicalizer.canonicalize("POST", "buy:v1", "/app", null, FORM, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void formDifferencesNameTheFieldNotAnIndex() {
        CanonicalRequest first = form("action=buy&symbol=s%3A1&quantity=3");
        CanonicalRequest retry = form("quantity=4&action=buy&symbol=s%3A1");

        assertEquals(List.of("/body/form/quantity"), retry.differencesFrom(first.text()));
    }

    @Test
    void formDifferencesNameAddedAndRemovedFields() {
        CanonicalRequest first = form("action=buy&quantity=3&note=x");
        CanonicalRequest retry = form("action=buy&quantity=3&a/b=1");

        assertEquals(List.of("/body/form/a~1b", "/body/form/note"), retry.differencesFrom(first.text()));
    }

    @Test
    void formDifferencesTellRepeatedFieldsApartByPosition() {
        CanonicalRequest first = form("tag=a&tag=b&tag=c");
        CanonicalRequest changed = form("tag=a&tag=b&tag=d");
        CanonicalRequest longer = form("tag=a&tag=b&tag=c&tag=d");

        assertEquals(List.of("/body/form/tag/2"), changed.differencesFrom(first.text()));
        assertEquals(List.of("/body/form/tag"), longer.differencesFrom(first.text()));
    }

    /**
     * A buffered body is read where it lies, in segments; its canonical form must be the one the same bytes in one
     * array get, wherever the segments split a character, a number or a form pair.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "application/json|{\"memo\":\"é😀€\",\"amount\":1.50e2,\"items\":[10,-0.0,true,null]}",
                "application/json|{\"a\":1} trailing",
                "application/problem+json|[\"ü\", 12345678901234567890.25]",
                "application/x-www-form-urlencoded; charset=UTF-8|b=%C3%A9+x&a=2&a=1&c",
                "text/plain|some opaque text, hashed"
            })
    void aBodyHeldInSegmentsHasTheCanonicalFormOfTheSameBytesInOneArray(String contentType, String text) {
        // Long enough for thousands of segments: a JSON array of the document, or the text repeated.
        String repeated =
                contentType.contains("json") ? "[" + (text + ",").repeat(300) + "0]" : (text + "&").repeat(300);
        byte[] body = repeated.getBytes(StandardCharsets.UTF_8);
        String expected = text(contentType, body);

        for (int piece = 1; piece <= 7; piece++) {
            SegmentedBuffer segments = new SegmentedBuffer(piece);
            for (int at = 0; at < body.length; at += piece) {
                segments.write(body, at, Math.min(piece, body.length - at));
            }
            assertEquals(
                    expected,
                    canonicalizer
                            .canonicalize(
                                    "POST",
                                    "debit:v1",
                                    "/api/accounts/1/debits",
                                    null,
                                    contentType,
                                    segments,
                                    List.of())
                            .text(),
                    "written " + piece + " bytes at a time");
        }
    }

    @Test
    void invalidUtf8InAJsonBodyHeldInSegmentsMakesItOpaqueAsInOneArray() {
        byte[] body = ("{\"memo\":\"" + "x".repeat(20_000) + "\u00e9\"}").getBytes(StandardCharsets.UTF_8);
        body[10_000] = (byte) 0xFF;
        SegmentedBuffer segments = new SegmentedBuffer(1);
        for (int at = 0; at < body.length; at += 333) {
            segments.write(body, at, Math.min(333, body.length - at));
        }

        String text = canonicalizer
                .canonicalize("POST", "debit:v1", "/api/accounts/1/debits", null, JSON, segments, List.of())
                .text();

        assertEquals(text(JSON, body), text);
        assertTrue(text.contains("\"sha256\""), text);
    }

    // Multipart form bodies

    private static String multipart(String boundary, String key, String amount, String file) {
        return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"idempotency-key\"\r\n\r\n" + key
                + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n" + amount
                + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.txt\"\r\n"
                + "Content-Type: Text/Plain\r\n\r\n" + file + "\r\n--" + boundary + "--\r\n";
    }

    private CanonicalRequest multipartRequest(String boundary, String key, String amount, String file) {
        return canonicalizer.canonicalize(
                "POST",
                "top-up:v1",
                "/forms/top-ups",
                null,
                "multipart/form-data; boundary=" + boundary,
                SegmentedBuffer.of(multipart(boundary, key, amount, file).getBytes(StandardCharsets.UTF_8)),
                List.of("/body/form/idempotency-key"));
    }

    @Test
    void multipartPartsAreSortedPairsWithFilesByNameTypeAndDigest() throws Exception {
        String text = text("multipart/form-data; boundary=b1", multipart("b1", "k1", "100", "hello"));

        assertEquals(
                "[[\"amount\",\"100\"],[\"idempotency-key\",\"k1\"],[\"receipt\",\"file:r.txt;text/plain;sha256:"
                        + sha256("hello".getBytes(StandardCharsets.UTF_8)) + "\"]]",
                tree(text).get("body").get("form").toString());
    }

    @Test
    void twoSubmissionsOfAFormWithDifferentBoundariesAndKeysAreOneRequest() {
        assertEquals(
                multipartRequest("----WebKitFormBoundaryA1", "k1", "100", "hello")
                        .text(),
                multipartRequest("----WebKitFormBoundaryZ9", "k2", "100", "hello")
                        .text());
    }

    @Test
    void aChangedFieldOfAMultipartFormIsNamedInTheDifferences() {
        CanonicalRequest first = multipartRequest("b1", "k", "100", "hello");
        CanonicalRequest retry = multipartRequest("b2", "k", "101", "hello");

        assertEquals(List.of("/body/form/amount"), retry.differencesFrom(first.text()));
    }

    @Test
    void aChangedFileOfAMultipartFormIsADifferentRequest() {
        CanonicalRequest first = multipartRequest("b1", "k", "100", "hello");
        CanonicalRequest retry = multipartRequest("b1", "k", "100", "hellO");

        assertEquals(List.of("/body/form/receipt"), retry.differencesFrom(first.text()));
    }

    @Test
    void malformedMultipartBodyBecomesSha256OfTheBytes() throws Exception {
        String body = "--b1\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n100\r\n";

        JsonNode canonical =
                tree(text("multipart/form-data; boundary=b1", body)).get("body");

        assertEquals(
                sha256(body.getBytes(StandardCharsets.UTF_8)),
                canonical.get("sha256").asText());
    }

    @Test
    void multipartTextPartThatIsNotUtf8BecomesSha256OfTheBytes() throws Exception {
        byte[] body = "--b1\r\nContent-Disposition: form-data; name=\"amount\"\r\n\r\n\u00e9\r\n--b1--"
                .getBytes(StandardCharsets.ISO_8859_1);

        JsonNode canonical =
                tree(text("multipart/form-data; boundary=b1", body)).get("body");

        assertEquals(sha256(body), canonical.get("sha256").asText());
    }
}
