package dev.idempotency.core;

import dev.idempotency.config.Settings;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * The scope of a caller named by the {@code scope-header} (a trusted gateway's identity header, or the
 * application's own {@code Authorization}) rather than by a container principal. The header's value can be a
 * credential, so it is never the scope as written: the scope is a digest of it, and that digest is what the table,
 * the log lines that name a record and the application's view of the execution hold.
 *
 * <ul>
 *   <li>With {@code scope-header-key}: {@code header:hmac-sha256:<base64url>}, an HMAC-SHA-256 under that key.
 *       Whoever reads the table without the key can neither recover a value nor confirm a guess of one.
 *   <li>Without it: {@code header:sha256:<base64url>}, a plain SHA-256. For a high-entropy value (an API key, a
 *       bearer token) that is enough: a digest cannot be turned back into a value of 128 random bits or more, nor
 *       used as the credential. A guessable value (a user name, an account number) can be confirmed by hashing
 *       guesses, so it is then hidden from a casual reader only; set a key for those.
 * </ul>
 *
 * <p>The prefix keeps a header scope from ever naming the same scope as a principal by accident. The value is
 * trimmed first, as it always was.
 *
 * <p>Immutable and thread-safe.
 */
public final class HeaderScope {
    /** What every header scope starts with; a principal's name is stored as it is. */
    public static final String PREFIX = "header:";

    private static final String KEYED = PREFIX + "hmac-sha256:";
    private static final String UNKEYED = PREFIX + "sha256:";
    private static final String HMAC = "HmacSHA256";

    private final Optional<SecretKey> key;

    /** @param key the {@code scope-header-key}, or empty for the plain SHA-256 digest */
    public HeaderScope(Optional<SecretKey> key) {
        this.key = key;
    }

    /**
     * Header scopes under a key given as bytes, as an application that erases by the value has it.
     *
     * @throws IllegalArgumentException if the key is shorter than {@code scope-header-key} allows
     */
    public static HeaderScope keyedWith(byte[] key) {
        if (key == null || key.length < Settings.MIN_SCOPE_HEADER_KEY_BYTES) {
            throw new IllegalArgumentException("a scope-header-key has at least " + Settings.MIN_SCOPE_HEADER_KEY_BYTES
                    + " bytes, was " + (key == null ? 0 : key.length));
        }
        return new HeaderScope(Optional.of(new SecretKeySpec(key, HMAC)));
    }

    /** The scope of the caller whose {@code scope-header} carries {@code headerValue}. */
    public String of(String headerValue) {
        byte[] value = headerValue.trim().getBytes(StandardCharsets.UTF_8);
        return key.map(secret -> KEYED + base64Url(hmac(secret, value)))
                .orElseGet(() -> UNKEYED + base64Url(sha256(value)));
    }

    /**
     * Every scope the records of this caller can have: the digest, and the value as written, the form of
     * releases before the digest ({@code header:<value>}), whose records stay until their retention ends. Erasure
     * deletes both, so an erasure is complete whichever release stored the records.
     */
    public List<String> erasable(String headerValue) {
        return Collections.unmodifiableList(Arrays.asList(of(headerValue), PREFIX + headerValue.trim()));
    }

    private static byte[] hmac(SecretKey secret, byte[] value) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(secret);
            return mac.doFinal(value);
        } catch (GeneralSecurityException e) {
            // Every Java platform must offer HmacSHA256 (the Mac class's Javadoc), and the key was made for it.
            throw new IllegalStateException("HmacSHA256 is not available: " + e, e);
        }
    }

    private static byte[] sha256(byte[] value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value);
        } catch (GeneralSecurityException e) {
            // Every Java platform must offer SHA-256 (the MessageDigest class's Javadoc).
            throw new IllegalStateException("SHA-256 is not available: " + e, e);
        }
    }

    private static String base64Url(byte[] digest) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    }
}
