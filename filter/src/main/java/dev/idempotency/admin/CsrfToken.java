package dev.idempotency.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The readiness page's token against cross-site request forgery: a random value kept in the operator's HTTP
 * session, written into every form of the page and required on every change made from it. A page of another site
 * can make the operator's browser post, with its credentials, but cannot read the token.
 *
 * <p>Thread-safe.
 */
public final class CsrfToken {
    /** The form field that carries the token. */
    public static final String PARAMETER = "csrf";

    private static final String ATTRIBUTE = CsrfToken.class.getName();
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfToken() {}

    /** The session's token, made on first use (which starts the session). */
    public static String of(HttpServletRequest request) {
        HttpSession session = request.getSession(true);
        synchronized (session) {
            Object existing = session.getAttribute(ATTRIBUTE);
            if (existing instanceof String token) {
                return token;
            }
            byte[] random = new byte[32];
            RANDOM.nextBytes(random);
            String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
            session.setAttribute(ATTRIBUTE, token);
            return token;
        }
    }

    /** Whether the request carries its session's token; a request without a session never does. */
    public static boolean carriedBy(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        String sent = request.getParameter(PARAMETER);
        Object expected = session == null ? null : session.getAttribute(ATTRIBUTE);
        return sent != null
                && expected instanceof String token
                && MessageDigest.isEqual(
                        token.getBytes(StandardCharsets.US_ASCII), sent.getBytes(StandardCharsets.US_ASCII));
    }
}
