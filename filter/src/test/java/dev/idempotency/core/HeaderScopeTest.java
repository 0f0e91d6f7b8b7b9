package dev.idempotency.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** A scope-header value becomes its digest, never itself: stable, keyed when a key is set, apart from principals. */
class HeaderScopeTest {
    private static final String SECRET = "Bearer sk_test_4eC39HqLyjWDarjtT1zdp7dc";

    private final HeaderScope unkeyed = new HeaderScope(Optional.empty());
    private final HeaderScope keyed = HeaderScope.keyedWith(key('a'));

    private static byte[] key(char fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return key;
    }

    @Test
    void withoutAKeyTheScopeIsThePlainSha256OfTheValue() {
        // FIPS 180-2's example: SHA-256("abc").
        assertEquals("header:sha256:ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0", unkeyed.of("abc"));
    }

    @Test
    void withAKeyTheScopeIsTheHmacSha256OfTheValue() {
        // RFC 4231, test case 2 (a key shorter than the setting allows, to use the RFC's own vector).
        HeaderScope rfc = new HeaderScope(
                Optional.of(new SecretKeySpec("Jefe".getBytes(StandardCharsets.US_ASCII), "HmacSHA256")));

        assertEquals(
                "header:hmac-sha256:W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM",
                rfc.of("what do ya want for nothing?"));
    }

    @Test
    void theSameValueAlwaysGivesTheSameScopeTrimmedAsBefore() {
        assertEquals(keyed.of(SECRET), keyed.of(SECRET));
        assertEquals(keyed.of(SECRET), HeaderScope.keyedWith(key('a')).of("  " + SECRET + " "));
        assertEquals(unkeyed.of(SECRET), new HeaderScope(Optional.empty()).of(SECRET));
    }

    @Test
    void theKeyDecidesTheScope() {
        assertNotEquals(unkeyed.of(SECRET), keyed.of(SECRET));
        assertNotEquals(keyed.of(SECRET), HeaderScope.keyedWith(key('b')).of(SECRET));
        assertNotEquals(keyed.of("alice"), keyed.of("bob"));
    }

    @Test
    void theScopeNeverContainsTheValueAndNeverLooksLikeAPrincipal() {
        for (HeaderScope scopes : List.of(unkeyed, keyed)) {
            String scope = scopes.of(SECRET);
            assertFalse(scope.contains("sk_test"), scope);
            assertTrue(scope.startsWith(HeaderScope.PREFIX), scope);
            assertTrue(scope.matches("header:(hmac-)?sha256:[A-Za-z0-9_-]{43}"), scope);
            // A principal named like the value does not share its records.
            assertNotEquals(SECRET, scope);
        }
    }

    @Test
    void erasureTakesTheRawValueAndCoversTheFormOfEarlierReleases() {
        assertEquals(List.of(keyed.of(SECRET), "header:" + SECRET), keyed.erasable(" " + SECRET));
    }

    @Test
    void refusesAKeyShorterThanTheSettingAllows() {
        IllegalArgumentException refusal =
                assertThrows(IllegalArgumentException.class, () -> HeaderScope.keyedWith(new byte[16]));

        assertEquals("a scope-header-key has at least 32 bytes, was 16", refusal.getMessage());
    }
}
