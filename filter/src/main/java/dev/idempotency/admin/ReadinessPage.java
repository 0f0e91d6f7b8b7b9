package dev.idempotency.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.servlet.HtmlText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The readiness page: the admin servlet's JSON report rendered as one HTML page, so everything on it is in the
 * JSON too. Per operation: the mode and who switched it when, the verdict, a chart of the daily keyless requests
 * and probable duplicates, the clients, and one button per mode. The page has no script at all; its one style
 * sheet is inline and allowed by its hash ({@link #CONTENT_SECURITY_POLICY}). Every value from the report is
 * escaped.
 */
public final class ReadinessPage {
    private static final String STYLE = "body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:60em}"
            + "section{border-top:1px solid #ccc;padding-top:1em;margin-top:1.5em}"
            + "table{border-collapse:collapse}td,th{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left}"
            + ".ready{color:#1e7b34}.blocked{color:#b03a2e}.unknown{color:#7d6608}"
            + ".chart{width:100%;max-width:720px;height:auto;border:1px solid #eee}"
            + "button{margin-right:.4em}small{color:#666}";

    /** No script, no frame, no plug-in; only the inline style above, and forms that post back to this servlet. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src '" + sha256(STYLE)
            + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

    private ReadinessPage() {}

    /**
     * @param report the admin servlet's JSON report ({@link AdminReport#all()})
     * @param action the URL the mode buttons post to
     * @param csrfToken the session's token, written into every form
     */
    public static String render(JsonNode report, String action, String csrfToken) {
        StringBuilder html = new StringBuilder(16_384);
        html.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<title>Idempotency readiness</title><style>")
                .append(STYLE)
                .append("</style></head><body><h1>Idempotency readiness</h1><p>Summed over every node as of each")
                .append(" node's last flush (every ")
                .append(HtmlText.escape(report.path("counterFlushInterval").asText()))
                .append("); today is <span id=\"today\">")
                .append(HtmlText.escape(report.path("today").asText()))
                .append("</span> (UTC). The same figures are the JSON of this URL.</p>");
        for (JsonNode operation : report.path("operations")) {
            operation(html, operation, action, csrfToken);
        }
        return html.append("</body></html>").toString();
    }

    private static void operation(StringBuilder html, JsonNode operation, String action, String csrfToken) {
        String name = operation.path("operation").asText();
        html.append("<section class=\"operation\" data-operation=\"")
                .append(HtmlText.escape(name))
                .append("\"><h2>")
                .append(HtmlText.escape(name))
                .append(" <small>")
                .append(HtmlText.escape(operation.path("route").asText()))
                .append("</small></h2><p>Mode <strong class=\"mode\">")
                .append(HtmlText.escape(operation.path("mode").asText()))
                .append("</strong>");
        if (operation.path("changedBy").isTextual()) {
            html.append(", switched by <span class=\"changed-by\">")
                    .append(HtmlText.escape(operation.path("changedBy").asText()))
                    .append("</span> at <time>")
                    .append(HtmlText.escape(operation.path("changedAt").asText()))
                    .append("</time>");
        } else {
            html.append(" (the configured default)");
        }
        html.append(".</p>");
        verdict(html, operation.path("readiness"));
        JsonNode history = operation.path("keylessHistory");
        if (!history.isMissingNode()) {
            html.append("<h3>Keyless requests per day since ")
                    .append(HtmlText.escape(history.path("firstDay").asText()))
                    .append(" <small>(blue: all, red: probable duplicates)</small></h3>")
                    .append(KeylessChart.svg(history.path("daily")));
            clients(html, history.path("clients"), operation.path("readiness").path("blockingClients"));
        }
        buttons(html, name, operation.path("mode").asText(), action, csrfToken);
        html.append("</section>");
    }

    private static void verdict(StringBuilder html, JsonNode readiness) {
        if (!readiness.path("ready").isBoolean()) {
            html.append("<p class=\"verdict unknown\">No verdict: ")
                    .append(HtmlText.escape(readiness.path("detail").asText()))
                    .append("</p>");
            return;
        }
        int quietDays = readiness.path("quietDays").asInt();
        if (readiness.path("ready").asBoolean()) {
            html.append("<p class=\"verdict ready\">Ready to require keys: no keyless request in the last ")
                    .append(quietDays)
                    .append(" days.</p>");
        } else {
            JsonNode blocking = readiness.path("blockingClients");
            html.append("<p class=\"verdict blocked\">Not ready: ")
                    .append(blocking.size())
                    .append(blocking.size() == 1 ? " client" : " clients")
                    .append(" sent keyless requests in the last ")
                    .append(quietDays)
                    .append(" days:");
            for (JsonNode client : blocking) {
                html.append(" <span class=\"blocking\">")
                        .append(HtmlText.escape(client.path("principal").asText()))
                        .append('/')
                        .append(HtmlText.escape(client.path("userAgent").asText()))
                        .append(" (last seen ")
                        .append(HtmlText.escape(client.path("lastSeen").asText()))
                        .append(")</span>");
            }
            html.append("</p>");
        }
        html.append("<p class=\"duplicates\"><strong>")
                .append(readiness.path("probableDuplicatesLast7Days").asLong())
                .append("</strong> keyless requests in the last 7 days probably ran twice.</p>");
    }

    private static void clients(StringBuilder html, JsonNode clients, JsonNode blocking) {
        html.append("<table class=\"clients\"><thead><tr><th>principal</th><th>client</th><th>first seen</th>")
                .append("<th>last seen</th><th>keyless</th><th>probable duplicates</th><th>in the last 7 days</th>")
                .append("<th>blocks</th></tr></thead><tbody>");
        for (JsonNode client : clients) {
            boolean blocks = false;
            for (JsonNode blocker : blocking) {
                blocks |= blocker.path("principal").equals(client.path("principal"))
                        && blocker.path("userAgent").equals(client.path("userAgent"));
            }
            html.append("<tr>");
            for (String field : new String[] {
                "principal",
                "userAgent",
                "firstSeen",
                "lastSeen",
                "requests",
                "probableDuplicates",
                "probableDuplicatesLast7Days"
            }) {
                html.append("<td>")
                        .append(HtmlText.escape(client.path(field).asText()))
                        .append("</td>");
            }
            html.append("<td>").append(blocks ? "yes" : "no").append("</td></tr>");
        }
        html.append("</tbody></table>");
    }

    private static void buttons(StringBuilder html, String operation, String mode, String action, String csrfToken) {
        html.append("<form method=\"post\" class=\"modes\" action=\"")
                .append(HtmlText.escape(action))
                .append("\"><input type=\"hidden\" name=\"operation\" value=\"")
                .append(HtmlText.escape(operation))
                .append("\"><input type=\"hidden\" name=\"")
                .append(CsrfToken.PARAMETER)
                .append("\" value=\"")
                .append(HtmlText.escape(csrfToken))
                .append("\">Switch to ");
        for (RolloutMode target : RolloutMode.values()) {
            html.append("<button type=\"submit\" name=\"mode\" value=\"")
                    .append(target.name())
                    .append('"')
                    .append(target.name().equals(mode) ? " disabled" : "")
                    .append('>')
                    .append(target.name())
                    .append("</button>");
        }
        html.append("</form>");
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
