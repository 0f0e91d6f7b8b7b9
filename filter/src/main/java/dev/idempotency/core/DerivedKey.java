package dev.idempotency.core;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Keys for the calls an execution makes to other services, derived from its record's identity and a label:
 * SHA-256 over a versioned, length-prefixed encoding of scope, operation, key and label, in base64url without
 * padding.
 *
 * <p>Each part is preceded by its length in UTF-8 bytes, so no two different tuples encode to the same bytes
 * (without it, scope {@code "a"} with operation {@code "b:v1"} and scope {@code "ab"} with operation {@code
 * ":v1"} would meet). The version tag lets a later derivation change without colliding with this one.
 *
 * <p>Stateless and thread-safe.
 */
public final class DerivedKey {
    /** Base64url of 32 bytes, without padding. */
    public static final int LENGTH = 43;

    private static final byte[] VERSION = "dev.idempotency derived key v1".getBytes(StandardCharsets.UTF_8);

    private DerivedKey() {}

    /**
     * @throws IllegalArgumentException if the label is null or blank
     */
    public static String of(String scope, String operation, String key, String label) {
        if (label == null || label.trim().isEmpty()) {
            throw new IllegalArgumentException("a derived key needs a label naming the call, such as \"charge\";"
                    + " was " + (label == null ? "null" : "\"" + label + "\""));
        }
        MessageDigest sha256 = sha256();
        sha256.update(VERSION);
        for (String part : new String[] {scope, operation, key, label}) {
            byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
            sha256.update(
                    ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
            sha256.update(bytes);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(sha256.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
