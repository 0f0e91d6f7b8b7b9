package dev.idempotency.servlet;

import dev.idempotency.rollout.KeylessRequest;
import jakarta.servlet.http.HttpServletRequest;

/** What the keyless counters learn of a request: its line and headers, never its body. */
public final class KeylessRequests {
    private KeylessRequests() {}

    public static KeylessRequest describe(HttpServletRequest request) {
        return new KeylessRequest(
                request.getMethod(),
                request.getRequestURI(),
                request.getQueryString(),
                request.getContentType(),
                request.getContentLengthLong(),
                request.getHeader(KeylessRequest.STAINLESS_RETRY_COUNT));
    }
}
