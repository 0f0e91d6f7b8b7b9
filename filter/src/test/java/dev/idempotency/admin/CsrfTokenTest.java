package dev.idempotency.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The readiness page's CSRF token: the session's own, required on every change. */
class CsrfTokenTest {
    private final StrictProxy proxies = new StrictProxy();

    private HttpSession session() {
        Map<String, Object> attributes = new HashMap<>();
        return proxies.of(
                HttpSession.class,
                Map.of(
                        "getAttribute", args -> attributes.get((String) args[0]),
                        "setAttribute", args -> attributes.put((String) args[0], args[1])));
    }

    private HttpServletRequest request(HttpSession session, String sentToken) {
        return proxies.of(
                HttpServletRequest.class,
                Map.of(
                        "getSession", args -> (boolean) args[0] || session != null ? session : null,
                        "getParameter", args -> CsrfToken.PARAMETER.equals(args[0]) ? sentToken : null));
    }

    @Test
    void aSessionKeepsItsTokenAndTwoSessionsHaveTwo() {
        HttpSession first = session();
        String token = CsrfToken.of(request(first, null));

        assertEquals(token, CsrfToken.of(request(first, null)));
        assertNotEquals(token, CsrfToken.of(request(session(), null)));
        assertEquals(43, token.length(), "32 random bytes, Base64url without padding");
    }

    @Test
    void aChangeCarryingItsSessionsTokenIsAccepted() {
        HttpSession session = session();
        String token = CsrfToken.of(request(session, null));

        assertTrue(CsrfToken.carriedBy(request(session, token)));
    }

    @Test
    void aChangeWithoutTheTokenWithAnotherSessionsOrWithoutASessionIsRefused() {
        HttpSession session = session();
        CsrfToken.of(request(session, null));
        HttpSession other = session();
        String othersToken = CsrfToken.of(request(other, null));

        assertFalse(CsrfToken.carriedBy(request(session, null)));
        assertFalse(CsrfToken.carriedBy(request(session, "")));
        assertFalse(CsrfToken.carriedBy(request(session, othersToken)));
        assertFalse(CsrfToken.carriedBy(request(null, othersToken)));
        assertEquals(List.of(), proxies.unexpectedCalls());
    }
}
