package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EncryptionKeysTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
    private static final String SHORT_KEY = Base64.getEncoder().encodeToString(new byte[10]);

    @Test
    void firstKeySealsAndEveryKeyIsKnownByItsId() {
        EncryptionKeys keys =
                EncryptionKeys.parse("encryption-keys", "b=" + KEY + ", a=env:OLD_KEY", Map.of("OLD_KEY", KEY)::get);

        assertEquals("b", keys.currentId());
        assertTrue(keys.byId("a").isPresent());
        assertFalse(keys.byId("c").isPresent());
        assertEquals("ids [b, a] (sealing with b)", keys.toString());
    }

    @Test
    void malformedEntriesFailWithAMessageThatNamesTheIdButNeverTheKey() {
        assertRefused("a=" + SHORT_KEY, "has 10 bytes");
        assertRefused("a=not base64!", "not valid Base64");
        assertRefused("a=" + KEY + ", a=" + KEY, "given twice");
        assertRefused("a=env:MISSING", "MISSING, which is not set");
        assertRefused("bad id=" + KEY, "is not");
        assertRefused(" , ", "lists no key");
    }

    @Test
    void anEncryptedOperationNeedsAKey() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class,
                () -> SettingsParser.parse(Map.of("operations", "POST /debits = debit:v1 encrypted")));

        assertTrue(e.getMessage().contains("debit:v1 is encrypted"), e.getMessage());
    }

    @Test
    void operationOptionsComeInAnyOrderAndAtMostOnce() {
        Operation both = Operation.parse("POST /debits = debit:v1 encrypted retention=P7D");

        assertTrue(both.encrypted());
        assertEquals("PT168H", both.retention().toString());
        assertEquals("POST /debits = debit:v1 retention=PT168H encrypted", both.toString());
        assertThrows(
                ConfigurationException.class, () -> Operation.parse("POST /debits = debit:v1 encrypted encrypted"));
        assertThrows(ConfigurationException.class, () -> Operation.parse("POST /debits = debit:v1 secret"));
    }

    private static void assertRefused(String value, String expected) {
        ConfigurationException e = assertThrows(
                ConfigurationException.class, () -> EncryptionKeys.parse("encryption-keys", value, name -> null));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains(KEY), "the message must not show the key");
    }
}
