package dev.idempotency.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The readiness page, rendered from a report whose every string a client or an operator could have chosen. */
class ReadinessPageTest {
    private static final String HOSTILE = "<script>alert(\"x\")</script>&'";
    private static final String ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;";

    private static JsonNode report(String text, boolean ready) throws Exception {
        String json =
                """
                {"counterFlushInterval": "PT30S", "today": "2026-12-04", "operations": [{
                  "operation": %1$s, "route": %1$s, "mode": "OPTIONAL", "changedBy": %1$s, "changedAt": %1$s,
                  "readiness": {"ready": %2$s, "quietDays": 30, "probableDuplicatesLast7Days": 412,
                    "blockingClients": [{"principal": %1$s, "userAgent": %1$s, "lastSeen": %1$s}]},
                  "keylessHistory": {"firstDay": "2026-09-06",
                    "clients": [{"principal": %1$s, "userAgent": %1$s, "firstSeen": %1$s, "lastSeen": %1$s,
                      "requests": 3, "probableDuplicates": 1, "probableDuplicatesLast7Days": 1}],
                    "daily": [{"day": %1$s, "requests": 3, "probableDuplicates": 1}]}
                }]}
                """
                        .formatted(new ObjectMapper().writeValueAsString(text), ready);
        return new ObjectMapper().readTree(json);
    }

    @Test
    void everyValueFromTheReportIsEscapedInTextAndAttributes() throws Exception {
        String page = ReadinessPage.render(report(HOSTILE, false), "/admin/\"idempotency", "tok\"en<");

        assertFalse(page.contains("<script"), page);
        assertFalse(page.contains(HOSTILE), page);
        assertTrue(page.contains("data-operation=\"" + ESCAPED + "\""), page);
        assertTrue(page.contains("<span class=\"changed-by\">" + ESCAPED + "</span>"), page);
        assertTrue(page.contains("<td>" + ESCAPED + "</td>"), page);
        assertTrue(page.contains("<title>" + ESCAPED + ": 3 keyless, 1 probable duplicates</title>"), page);
        assertTrue(page.contains("action=\"/admin/&quot;idempotency\""), page);
        assertTrue(page.contains("value=\"tok&quot;en&lt;\""), page);
    }

    @Test
    void aBlockedOperationNamesItsClientsAndTheDuplicatesOfTheWeek() throws Exception {
        String page = ReadinessPage.render(report("bob", false), "/admin/idempotency", "t");

        assertTrue(page.contains("Not ready: 1 client sent keyless requests in the last 30 days:"), page);
        assertTrue(page.contains("<span class=\"blocking\">bob/bob (last seen bob)</span>"), page);
        assertTrue(page.contains("<strong>412</strong> keyless requests in the last 7 days probably ran twice"), page);
    }

    @Test
    void aReadyOperationSaysSo() throws Exception {
        String page = ReadinessPage.render(report("bob", true), "/admin/idempotency", "t");

        assertTrue(page.contains("Ready to require keys: no keyless request in the last 30 days."), page);
    }

    @Test
    void everyModeButtonPostsTheSessionsTokenAndTheCurrentModeIsDisabled() throws Exception {
        String page = ReadinessPage.render(report("bob", false), "/admin/idempotency", "the-token");

        assertTrue(page.contains("<input type=\"hidden\" name=\"csrf\" value=\"the-token\">"), page);
        assertTrue(page.contains("<button type=\"submit\" name=\"mode\" value=\"OPTIONAL\" disabled>"), page);
        assertTrue(page.contains("<button type=\"submit\" name=\"mode\" value=\"REQUIRED\">"), page);
    }

    @Test
    void thePolicyAllowsNoScriptAndOnlyThePagesOwnStyleByItsHash() throws Exception {
        String policy = ReadinessPage.CONTENT_SECURITY_POLICY;
        String page = ReadinessPage.render(report("bob", false), "/admin/idempotency", "t");
        Matcher style = Pattern.compile("<style>(.*?)</style>").matcher(page);
        assertTrue(style.find());
        String hash = Base64.getEncoder()
                .encodeToString(MessageDigest.getInstance("SHA-256")
                        .digest(style.group(1).getBytes(StandardCharsets.UTF_8)));

        assertTrue(policy.startsWith("default-src 'none'; "), policy);
        assertTrue(policy.contains("style-src 'sha256-" + hash + "'"), policy);
        assertFalse(policy.contains("unsafe"), policy);
        assertFalse(policy.contains("script-src"), policy);
        assertFalse(page.contains("<script"), page);
        assertEquals(1, page.split("<style>", -1).length - 1, "one style element");
    }
}
