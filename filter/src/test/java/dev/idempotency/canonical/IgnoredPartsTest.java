package dev.idempotency.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What an operation leaves out of a request's identity, and what it must not be able to leave out. */
class IgnoredPartsTest {
    private static final String JSON = "application/json";
    private static final String FORM = "application/x-www-form-urlencoded";
    private final RequestCanonicalizer canonicalizer = new RequestCanonicalizer();

    private String canonical(String query, String contentType, String body, List<String> ignored) {
        return canonicalizer
                .canonicalize(
                        "POST", "pay:v1", "/pay", query, contentType, body.getBytes(StandardCharsets.UTF_8), ignored)
                .text();
    }

    @Test
    void anIgnoredJsonMemberDoesNotChangeTheIdentityAndOthersStillDo() {
        List<String> ignored = List.of("/body/json/requestedAt", "/body/json/meta/nonce");
        String first = canonical(
                null, JSON, "{\"amount\":1,\"requestedAt\":\"10:00\",\"meta\":{\"nonce\":1,\"a\":2}}", ignored);
        String retry = canonical(
                null, JSON, "{\"amount\":1,\"requestedAt\":\"10:05\",\"meta\":{\"nonce\":9,\"a\":2}}", ignored);
        String otherAmount = canonical(
                null, JSON, "{\"amount\":2,\"requestedAt\":\"10:00\",\"meta\":{\"nonce\":1,\"a\":2}}", ignored);

        assertEquals(first, retry);
        assertNotEquals(first, otherAmount);
        assertEquals(List.of("/body/json/amount"), new CanonicalRequest(first).differencesFrom(otherAmount));
        assertTrue(first.contains("\"ignored\":[\"/body/json/requestedAt\",\"/body/json/meta/nonce\"]"), first);
    }

    @Test
    void anIgnoredQueryParameterOrFormFieldDoesNotChangeTheIdentity() {
        List<String> ignored = List.of("/query/nonce", "/body/form/sentAt");
        assertEquals(
                canonical("a=1&nonce=x", FORM, "amount=1&sentAt=1", ignored),
                canonical("nonce=y&a=1", FORM, "sentAt=2&amount=1", ignored));
        assertNotEquals(
                canonical("a=1&nonce=x", FORM, "amount=1&sentAt=1", ignored),
                canonical("a=2&nonce=x", FORM, "amount=1&sentAt=1", ignored));
    }

    @Test
    void theListIsPartOfTheIdentitySoChangingItIsADifferentRequest() {
        String body = "{\"amount\":1}";
        assertNotEquals(
                canonical(null, JSON, body, List.of()), canonical(null, JSON, body, List.of("/body/json/sentAt")));
        assertEquals(
                canonicalizer
                        .canonicalize("POST", "pay:v1", "/pay", null, JSON, body.getBytes(StandardCharsets.UTF_8))
                        .text(),
                canonical(null, JSON, body, List.of()));
    }

    @Test
    void escapedTokensNameMembersWithSlashesAndTildes() {
        List<String> ignored = List.of("/body/json/a~1b", "/body/json/c~0d");
        assertEquals(
                canonical(null, JSON, "{\"x\":1,\"a/b\":1,\"c~d\":1}", ignored),
                canonical(null, JSON, "{\"x\":1,\"a/b\":2,\"c~d\":2}", ignored));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/method",
                "/path",
                "/body",
                "/body/json",
                "/body/sha256",
                "/query",
                "body/json/a",
                "/query/a/b",
                ""
            })
    void refusesWhatIsNotAPartAClientMayVary(String pointer) {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> IgnoredParts.parse("pay:v1", pointer));
        assertTrue(e.getMessage().contains("is not a part a client may vary"), e.getMessage());
    }

    @Test
    void refusesAPointerNamedTwice() {
        assertThrows(ConfigurationException.class, () -> IgnoredParts.parse("pay:v1", "/query/nonce|/query/nonce"));
        assertEquals(
                List.of("/query/nonce", "/body/json/a/b"), IgnoredParts.parse("pay:v1", "/query/nonce|/body/json/a/b"));
    }
}
