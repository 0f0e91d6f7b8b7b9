package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.List;

/**
 * A path such as {@code /api/accounts/{id}/debits}, where each {@code {name}} stands for exactly one
 * non-empty path segment. Matching is exact otherwise: no wildcards, no trailing-slash tolerance.
 *
 * <p>Immutable and thread-safe.
 */
public final class PathTemplate {
    private final String text;
    private final List<String> segments;

    private PathTemplate(String text, List<String> segments) {
        this.text = text;
        this.segments = segments;
    }

    /**
     * @throws ConfigurationException if the template does not start with {@code /} or has an empty
     *     segment or a malformed variable
     */
    public static PathTemplate parse(String text) {
        if (!text.startsWith("/")) {
            throw new ConfigurationException("path template must start with '/', was '" + text + "'");
        }
        List<String> segments = List.of(text.substring(1).split("/", -1));
        for (String segment : segments) {
            boolean opens = segment.contains("{");
            boolean closes = segment.contains("}");
            if (segment.isEmpty() || (opens || closes) && !(isVariable(segment) && segment.length() > 2)) {
                throw new ConfigurationException("path template '" + text
                        + "' has an empty segment or a malformed variable; write segments like 'accounts' or '{id}'");
            }
        }
        return new PathTemplate(text, segments);
    }

    /** The template with every variable written {@code {}}: two templates with one shape match the same paths. */
    public String shape() {
        StringBuilder shape = new StringBuilder();
        for (String segment : segments) {
            shape.append('/').append(isVariable(segment) ? "{}" : segment);
        }
        return shape.toString();
    }

    /** Whether {@code path} (relative to the context path, starting with {@code /}) matches. */
    public boolean matches(String path) {
        if (!path.startsWith("/")) {
            return false;
        }
        String[] parts = path.substring(1).split("/", -1);
        if (parts.length != segments.size()) {
            return false;
        }
        for (int i = 0; i < parts.length; i++) {
            String expected = segments.get(i);
            boolean ok = isVariable(expected) ? !parts[i].isEmpty() : expected.equals(parts[i]);
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean isVariable(String segment) {
        return segment.startsWith("{")
                && segment.endsWith("}")
                && segment.indexOf('{', 1) < 0
                && segment.indexOf('}') == segment.length() - 1;
    }

    @Override
    public String toString() {
        return text;
    }
}
