package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Templates and checks refuse what they cannot send faithfully, with a message that names the value. */
class ConfigurationTest {
    private static final RequestTemplate DEBIT = RequestTemplate.post(URI.create("http://127.0.0.1:1/debits"))
            .header("Content-Type", "application/json")
            .body("{\"amount\": 100}");

    @Test
    void templateRefusesHeadersTheKitSetsItself() {
        for (String managed : new String[] {"Host", "content-length", "Connection", "Transfer-Encoding"}) {
            IllegalArgumentException refused =
                    assertThrows(IllegalArgumentException.class, () -> DEBIT.header(managed, "x"));
            assertEquals(
                    "header " + managed + " cannot be set: the kit sets Host, Content-Length and Connection itself"
                            + " and sends no Transfer-Encoding, Expect or Upgrade",
                    refused.getMessage());
        }
    }

    @Test
    void templateRefusesAHeaderValueThatIsNotPrintableAscii() {
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> DEBIT.header("X-Memo", "line\r\nInjected: yes"));

        assertEquals(
                "the value of header X-Memo must be printable ASCII, was 'line\r\nInjected: yes'",
                refused.getMessage());
    }

    @Test
    void templateRefusesARelativeOrNonHttpUri() {
        assertThrows(IllegalArgumentException.class, () -> RequestTemplate.post(URI.create("/debits")));
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> RequestTemplate.post(URI.create("ftp://example/debits")));

        assertEquals(
                "uri must be an absolute http or https URI with a host, was ftp://example/debits",
                refused.getMessage());
    }

    @Test
    void checkRefusesATemplateThatAlreadyCarriesTheKeyHeader() {
        RequestTemplate keyed = DEBIT.header("idempotency-key", "fixed");

        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> IdempotencyCheck.of(keyed));

        assertEquals(
                "the request template must not carry the Idempotency-Key header: each check sends a key of its own"
                        + " there",
                refused.getMessage());
    }

    @Test
    void checkRefusesAnEffectThatOneExecutionDoesNotMove() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> IdempotencyCheck.of(DEBIT).withEffect(() -> 0, 0));

        assertEquals(
                "changePerExecution must not be 0: a probe that one execution does not move cannot tell one"
                        + " execution from two",
                refused.getMessage());
    }

    @Test
    void checkRefusesANonPositiveTimeout() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> IdempotencyCheck.of(DEBIT).withTimeout(Duration.ZERO));

        assertEquals("timeout must be positive, was PT0S", refused.getMessage());
    }

    @Test
    void duplicatesCheckNeedsAtLeastTwoCopies() {
        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class, () -> IdempotencyCheck.of(DEBIT).concurrentDuplicatesExecuteOnce(1));

        assertEquals("copies must be at least 2 to be duplicates, was 1", refused.getMessage());
    }

    @Test
    void keyReuseCheckNeedsABodyThatDiffers() {
        assertThrows(IllegalArgumentException.class, () -> IdempotencyCheck.of(DEBIT)
                .keyReuseWithChangedBodyIsRejected("{\"amount\": 100}"));
    }

    @Test
    void lostResponseCheckRefusesHttpsBecauseItResetsAPlainSocket() {
        IdempotencyCheck overTls = IdempotencyCheck.of(RequestTemplate.post(URI.create("https://shop.example/debits")));

        IllegalStateException refused = assertThrows(IllegalStateException.class, overTls::lostResponseIsReplayed);

        assertEquals(
                "the lost-response check resets a plain HTTP/1.1 socket and supports http only; send it to the"
                        + " server's http listener, was https://shop.example/debits",
                refused.getMessage());
    }

    @Test
    void aKeySupplierThatReturnsNothingUsableIsAnError() {
        IdempotencyCheck blankKeys = IdempotencyCheck.of(DEBIT).withKeys(() -> " ");

        IllegalStateException refused = assertThrows(IllegalStateException.class, blankKeys::lostResponseIsReplayed);

        assertEquals(
                "the key supplier must return a non-blank printable ASCII key, returned ' '", refused.getMessage());
    }
}
