package dev.idempotency.rollout;

import dev.idempotency.canonical.Hex;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What the rollout counters learn of a keyless request, taken by the servlet layer from the request line and
 * headers only. The body is not read: a keyless request passes through to the application untouched, and reading
 * it here would mean buffering every keyless body just to count it. So two keyless requests are "the same" when
 * their method, path, query, content type and content length agree, which a client's retry of one request always
 * satisfies, and two different requests of the same shape and size also do (a false duplicate, never a missed one).
 *
 * @param retryCount the value of the client's retry marker ({@value #STAINLESS_RETRY_COUNT}), or {@code null}
 */
public record KeylessRequest(
        String method, String path, String query, String contentType, long contentLength, String retryCount) {
    /**
     * Sent by every SDK that Stainless generates (the OpenAI and Anthropic SDKs among them) on every attempt:
     * {@code 0} on the first, the attempt's number on each retry, with or without an idempotency key.
     */
    public static final String STAINLESS_RETRY_COUNT = "X-Stainless-Retry-Count";

    /** Whether the client said this is a retry: a retry marker of 1 or more. A malformed marker says nothing. */
    public boolean markedAsRetry() {
        if (retryCount == null) {
            return false;
        }
        try {
            return Integer.parseInt(retryCount.trim()) >= 1;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** SHA-256 of the request's shape, so that what is held in memory names no path or query of a caller. */
    String digest() {
        String canonical = method
                + '\n'
                + path
                + '\n'
                + (query == null ? "" : query)
                + '\n'
                + (contentType == null ? "" : contentType)
                + '\n'
                + contentLength;
        try {
            return Hex.of(MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
