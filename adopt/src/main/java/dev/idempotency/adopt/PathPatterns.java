package dev.idempotency.adopt;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns JAX-RS path templates and servlet URL patterns into the context-relative paths they serve, by the rules
 * of Jakarta RESTful Web Services 3.1 (section 3.7.3) and Jakarta Servlet 6.0 (section 12.2).
 *
 * <p>Stateless and thread-safe.
 */
final class PathPatterns {
    private static final String ANY_SEGMENT = "[^/]+";

    private PathPatterns() {}

    /**
     * The context-relative template of a JAX-RS method: the application path, the class's and the method's
     * {@code @Path}, each with or without slashes, and an application path's servlet-style {@code /*} dropped.
     */
    static String joinJaxRs(String... parts) {
        List<String> kept = new ArrayList<>();
        for (String part : parts) {
            String trimmed = part == null ? "" : part.trim();
            if (trimmed.endsWith("/*")) {
                trimmed = trimmed.substring(0, trimmed.length() - 2);
            }
            trimmed = trimmed.replaceAll("^/+", "").replaceAll("/+$", "");
            if (!trimmed.isEmpty()) {
                kept.add(trimmed);
            }
        }
        return "/" + String.join("/", kept);
    }

    /** The paths a JAX-RS template serves: {@code {id}} is one segment, {@code {id: \d+}} its own expression. */
    static Pattern jaxRs(String template) {
        return Pattern.compile(jaxRsExpression(template));
    }

    /** The paths under a JAX-RS template, for a sub-resource locator the command cannot follow. */
    static Pattern jaxRsPrefix(String template) {
        return Pattern.compile((template.equals("/") ? "" : jaxRsExpression(template)) + "(/.*)?");
    }

    private static String jaxRsExpression(String template) {
        StringBuilder expression = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                expression.append(Pattern.quote(template.substring(i)));
                break;
            }
            if (open > i) {
                expression.append(Pattern.quote(template.substring(i, open)));
            }
            // A variable's own expression may hold braces ({code: [a-z]{3}}): its end is where the depth is zero.
            int depth = 0;
            int close = open;
            for (; close < template.length(); close++) {
                char c = template.charAt(close);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                if (depth == 0) {
                    break;
                }
            }
            String variable = template.substring(open + 1, Math.min(close, template.length()));
            int colon = variable.indexOf(':');
            expression
                    .append('(')
                    .append(
                            colon < 0
                                    ? ANY_SEGMENT
                                    : variable.substring(colon + 1).trim())
                    .append(')');
            i = close + 1;
        }
        return expression.toString();
    }

    /** The paths a servlet URL pattern serves: exact, {@code /prefix/*}, {@code *.extension}, or every path. */
    static Pattern servlet(String urlPattern) {
        if (urlPattern.isEmpty()) {
            return Pattern.compile("/"); // the context root only
        }
        if (urlPattern.equals("/") || urlPattern.equals("/*")) {
            return Pattern.compile(".*");
        }
        if (urlPattern.startsWith("*.")) {
            return Pattern.compile(".*" + Pattern.quote(urlPattern.substring(1)));
        }
        if (urlPattern.endsWith("/*")) {
            return Pattern.compile(Pattern.quote(urlPattern.substring(0, urlPattern.length() - 2)) + "(/.*)?");
        }
        return Pattern.compile(Pattern.quote(urlPattern));
    }
}
