package dev.idempotency.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.config.EncryptionKeys;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RecordEncryptionTest {
    private static final String REQUEST = "{\"body\":{\"amount\":100},\"method\":\"POST\"}";
    private static final byte[] BODY = "{\"balance\":900}".getBytes(StandardCharsets.UTF_8);
    private static final RequestResultId ID = new RequestResultId("alice", "debit:v1", "k1");

    @Test
    void sealedRecordHoldsNoPlaintextAndOpensToTheOriginal() throws Exception {
        RecordEncryption encryption = encryption("k-new=" + key(1));

        StoredRecord sealed = sealed(encryption, ID);

        assertTrue(sealed.request().startsWith("enc1:k-new:"), sealed.request());
        assertFalse(sealed.request().contains("amount"));
        assertFalse(new String(sealed.response().body(), StandardCharsets.ISO_8859_1).contains("balance"));
        StoredRecord opened = encryption.readable(sealed);
        assertEquals(REQUEST, opened.request());
        assertArrayEquals(BODY, opened.response().body());
        assertEquals(
                Map.of("Content-Type", List.of("application/json")),
                opened.response().headers());
    }

    @Test
    void rotatedKeysStillOpenOldRecordsAndSealNewOnesUnderTheFirstKey() throws Exception {
        StoredRecord old = sealed(encryption("k-old=" + key(1)), ID);
        RecordEncryption rotated = encryption("k-new=" + key(2) + ", k-old=" + key(1));

        assertEquals(REQUEST, rotated.readable(old).request());
        assertTrue(rotated.storedRequest(ID, REQUEST).startsWith("enc1:k-new:"));
    }

    @Test
    void recordUnderAKeyNoLongerListedIsUnreadable() {
        StoredRecord old = sealed(encryption("k-old=" + key(1)), ID);
        RecordEncryption withoutOld = encryption("k-new=" + key(2));

        RecordEncryption.UnreadableRecordException e =
                assertThrows(RecordEncryption.UnreadableRecordException.class, () -> withoutOld.readable(old));
        assertTrue(e.getMessage().contains("k-old"), e.getMessage());
    }

    @Test
    void changedBytesCopiedPartsAndAnotherKeyUnderTheSameIdAreUnreadable() {
        RecordEncryption encryption = encryption("k=" + key(1));
        StoredRecord sealed = sealed(encryption, ID);
        byte[] tampered = sealed.response().body().clone();
        tampered[tampered.length - 1] ^= 1;
        StoredRecord otherRecord = sealed(encryption, new RequestResultId("bob", "debit:v1", "k1"));

        assertUnreadable(encryption, withBody(sealed, tampered));
        assertUnreadable(encryption, withBody(sealed, otherRecord.response().body()));
        assertUnreadable(
                encryption,
                new StoredRecord(ID, otherRecord.request(), sealed.response(), Instant.EPOCH, Instant.EPOCH));
        assertUnreadable(encryption("k=" + key(3)), sealed);
    }

    @Test
    void plainRecordsAndOperationsThatAreNotEncryptedStayPlain() throws Exception {
        RecordEncryption encryption = encryption("k=" + key(1));
        RequestResultId plainOperation = new RequestResultId("alice", "open-account:v1", "k1");
        StoredRecord plain =
                new StoredRecord(ID, REQUEST, new StoredResponse(200, Map.of(), BODY), Instant.EPOCH, Instant.EPOCH);

        assertEquals(REQUEST, encryption.storedRequest(plainOperation, REQUEST));
        assertSame(plain, encryption.readable(plain));
    }

    /** Sealed by the filter before the cipher wrote into the sealed array itself: the stored form is unchanged. */
    @Test
    void aRecordSealedByAnEarlierVersionStillOpens() throws Exception {
        StoredRecord earlier = new StoredRecord(
                ID,
                "enc1:k-old:fI4E5fcZtu2mvkyYNjrRdcfqA5KMz2ksDFrFotLJeMo1zb1o+ym1MZiLD2k+MAbKqeqkWkNKk/4EHBUyx+zyaOKO6w==",
                new StoredResponse(
                        200,
                        Map.of(),
                        Base64.getDecoder().decode("/wv+1TJLfU8ZYsb+NF4sLAcizfmSpwesiNIA/DVUQtLOX3oopeNTsQRS1g==")),
                Instant.EPOCH,
                Instant.EPOCH);

        StoredRecord opened = encryption("k-old=" + key(1)).readable(earlier);

        assertEquals(REQUEST, opened.request());
        assertArrayEquals(BODY, opened.response().body());
    }

    @Test
    void aSealedBodyIsTheNonceTheCiphertextAndTheTagWithNothingBetweenOrAfter() {
        byte[] sealed = sealed(encryption("k=" + key(1)), ID).response().body();

        assertEquals(12 + BODY.length + 16, sealed.length);
    }

    @Test
    void everySealHasItsOwnNonce() {
        RecordEncryption encryption = encryption("k=" + key(1));

        assertNotEquals(encryption.storedRequest(ID, REQUEST), encryption.storedRequest(ID, REQUEST));
    }

    private static void assertUnreadable(RecordEncryption encryption, StoredRecord record) {
        assertThrows(RecordEncryption.UnreadableRecordException.class, () -> encryption.readable(record));
    }

    private static StoredRecord sealed(RecordEncryption encryption, RequestResultId id) {
        StoredResponse response = encryption.storedResponse(
                id, new StoredResponse(200, Map.of("Content-Type", List.of("application/json")), BODY));
        return new StoredRecord(id, encryption.storedRequest(id, REQUEST), response, Instant.EPOCH, Instant.EPOCH);
    }

    private static StoredRecord withBody(StoredRecord record, byte[] body) {
        return new StoredRecord(
                record.id(),
                record.request(),
                new StoredResponse(record.response().status(), record.response().headers(), body),
                record.createdAt(),
                record.expiresAt());
    }

    private static RecordEncryption encryption(String keys) {
        IdempotencyConfig config = SettingsParser.parse(Map.of(
                "operations",
                "POST /debits = debit:v1 encrypted; POST /accounts = open-account:v1",
                "encryption-keys",
                keys));
        EncryptionKeys parsed = config.encryptionKeys();
        assertEquals(Set.of("debit:v1"), config.encryptedOperations());
        return new RecordEncryption(parsed, config.encryptedOperations());
    }

    private static String key(int seed) {
        byte[] bytes = new byte[32];
        java.util.Arrays.fill(bytes, (byte) seed);
        return Base64.getEncoder().encodeToString(bytes);
    }
}
