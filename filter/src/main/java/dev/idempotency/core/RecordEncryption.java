package dev.idempotency.core;

import dev.idempotency.config.EncryptionKeys;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

/**
 * Seals the stored request and response body of encrypted operations with AES-GCM, and opens them again for
 * a replay or a mismatch check. The status and the stored headers stay readable, so operators can still see
 * what happened.
 *
 * <p>A sealed request is {@code enc1:<key id>:<Base64 of nonce and ciphertext>}; a plain canonical request
 * is a JSON object and always starts with <code>{</code>, so the two never mix up, and records made before
 * an operation was encrypted still replay. The body is sealed under the same key id as the request. Each
 * part is bound to the record's identity and to its role (associated data), so a sealed body copied into
 * another record, or into the request column, does not open.
 *
 * <p>Thread-safe.
 */
public final class RecordEncryption {
    static final String SEALED_PREFIX = "enc1:";

    private static final String CIPHER = "AES/GCM/NoPadding";
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final EncryptionKeys keys;
    private final Set<String> encryptedOperations;
    private final SecureRandom random = new SecureRandom();

    public RecordEncryption(EncryptionKeys keys, Set<String> encryptedOperations) {
        this.keys = keys;
        this.encryptedOperations = Collections.unmodifiableSet(new HashSet<>(encryptedOperations));
    }

    /** The canonical request as it is stored for this record: sealed if its operation is encrypted. */
    String storedRequest(RequestResultId id, String canonicalRequest) {
        if (!encryptedOperations.contains(id.operation())) {
            return canonicalRequest;
        }
        String keyId = keys.currentId();
        byte[] sealed = seal(keyId, id, Part.REQUEST, canonicalRequest.getBytes(StandardCharsets.UTF_8));
        return SEALED_PREFIX + keyId + ":" + Base64.getEncoder().encodeToString(sealed);
    }

    /** The response as it is stored for this record: its body sealed if its operation is encrypted. */
    StoredResponse storedResponse(RequestResultId id, StoredResponse response) {
        if (!encryptedOperations.contains(id.operation())) {
            return response;
        }
        byte[] body = seal(keys.currentId(), id, Part.RESPONSE_BODY, response.body());
        return new StoredResponse(response.status(), response.headers(), body, response.writerCharset());
    }

    /**
     * The record as it was made, opened if it was sealed (whether or not its operation is encrypted now).
     *
     * @throws UnreadableRecordException if its key id is not configured, or a part fails authentication
     */
    StoredRecord readable(StoredRecord record) throws UnreadableRecordException {
        if (!record.request().startsWith(SEALED_PREFIX)) {
            return record;
        }
        String[] envelope = record.request().substring(SEALED_PREFIX.length()).split(":", 2);
        if (envelope.length != 2) {
            throw new UnreadableRecordException("its stored request is not a sealed envelope");
        }
        String keyId = envelope[0];
        byte[] sealedRequest;
        try {
            sealedRequest = Base64.getDecoder().decode(envelope[1]);
        } catch (IllegalArgumentException e) {
            throw new UnreadableRecordException("its stored request is not valid Base64");
        }
        String request = new String(open(keyId, record.id(), Part.REQUEST, sealedRequest), StandardCharsets.UTF_8);
        StoredResponse response = record.response();
        byte[] body = open(keyId, record.id(), Part.RESPONSE_BODY, response.body());
        return new StoredRecord(
                record.id(),
                request,
                new StoredResponse(response.status(), response.headers(), body, response.writerCharset()),
                record.createdAt(),
                record.expiresAt());
    }

    /**
     * The nonce, then the ciphertext with its tag. The cipher writes straight into the sealed array after the
     * nonce, rather than into an array of its own that is then copied: a sealed response body is as long as the
     * body, and is made while the body is still held.
     */
    private byte[] seal(String keyId, RequestResultId id, Part part, byte[] plaintext) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.ENCRYPT_MODE, key(keyId), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(keyId, id, part));
            byte[] sealed = new byte[NONCE_BYTES + cipher.getOutputSize(plaintext.length)];
            System.arraycopy(nonce, 0, sealed, 0, NONCE_BYTES);
            int written = cipher.doFinal(plaintext, 0, plaintext.length, sealed, NONCE_BYTES);
            // getOutputSize may promise more than is written (a provider's estimate); the sealed form has no gap.
            return NONCE_BYTES + written == sealed.length ? sealed : Arrays.copyOf(sealed, NONCE_BYTES + written);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    private byte[] open(String keyId, RequestResultId id, Part part, byte[] sealed) throws UnreadableRecordException {
        SecretKey key = keys.byId(keyId)
                .orElseThrow(() -> new UnreadableRecordException(
                        "it was sealed under the key id '" + keyId + "', which encryption-keys no longer lists"));
        if (sealed == null || sealed.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new UnreadableRecordException("its sealed " + part.label + " is too short");
        }
        try {
            Cipher cipher = Cipher.getInstance(CIPHER);
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 0, NONCE_BYTES));
            cipher.updateAAD(associatedData(keyId, id, part));
            return cipher.doFinal(sealed, NONCE_BYTES, sealed.length - NONCE_BYTES);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new UnreadableRecordException("its sealed " + part.label + " failed authentication under the key"
                    + " id '" + keyId + "' (changed in the database, copied from another record, or a different key"
                    + " under the same id)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        }
    }

    private SecretKey key(String keyId) {
        return keys.byId(keyId).get();
    }

    /** Binds a sealed part to its key id, its record and its role. */
    private static byte[] associatedData(String keyId, RequestResultId id, Part part) {
        return String.join("\n", SEALED_PREFIX + part.label, keyId, id.scope(), id.operation(), id.requestKey())
                .getBytes(StandardCharsets.UTF_8);
    }

    private enum Part {
        REQUEST("request"),
        RESPONSE_BODY("response body");

        private final String label;

        Part(String label) {
            this.label = label;
        }
    }

    /** A sealed record that cannot be opened: never replayed, never executed again. */
    static final class UnreadableRecordException extends Exception {
        private static final long serialVersionUID = 1L;

        UnreadableRecordException(String reason) {
            super(reason);
        }
    }
}
