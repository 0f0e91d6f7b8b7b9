package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A path such as {@code /api/accounts/{id}/debits}, where each {@code {name}} stands for exactly one
 * non-empty path segment, or {@code /} for the context root. Matching is exact otherwise: no wildcards.
 *
 * <p>Requests are matched on the container's decoded, normalized path with one trailing slash removed, so a
 * template that such a path can never equal (a trailing slash, an empty, {@code .} or {@code ..} segment, a
 * {@code ;parameter}, a {@code %} escape, a {@code ?} or {@code #}) is refused rather than left to cover
 * nothing.
 *
 * <p>Immutable and thread-safe.
 */
public final class PathTemplate {
    private static final String SEGMENT_HINT =
            "; write segments like 'accounts' or '{id}', or '/' for the context root";

    private final String text;
    private final List<String> segments;

    private PathTemplate(String text, List<String> segments) {
        this.text = text;
        this.segments = segments;
    }

    /**
     * @throws ConfigurationException if the template does not start with {@code /}, has a malformed variable,
     *     or could never match a request path, saying why
     */
    public static PathTemplate parse(String text) {
        if (!text.startsWith("/")) {
            throw new ConfigurationException("path template must start with '/', was '" + text + "'");
        }
        if (text.equals("/")) {
            return new PathTemplate(text, Collections.emptyList());
        }
        if (text.endsWith("/")) {
            throw new ConfigurationException("path template '" + text + "' ends with '/', which no request path"
                    + " does: the filter removes one trailing slash before matching; write '"
                    + text.substring(0, text.length() - 1) + "', which covers both spellings");
        }
        List<String> segments = Arrays.asList(text.substring(1).split("/", -1));
        for (String segment : segments) {
            String unmatchable = whyUnmatchable(segment);
            if (unmatchable != null) {
                throw new ConfigurationException(
                        "path template '" + text + "' can never match a request: " + unmatchable + SEGMENT_HINT);
            }
            boolean braces = segment.contains("{") || segment.contains("}");
            if (braces && !(isVariable(segment) && segment.length() > 2)) {
                throw new ConfigurationException("path template '" + text + "' has a malformed variable '" + segment
                        + "'; a variable is a whole segment such as '{id}'" + SEGMENT_HINT);
            }
        }
        return new PathTemplate(text, segments);
    }

    /** Why no decoded, normalized request path can contain this segment, or {@code null} if one can. */
    private static String whyUnmatchable(String segment) {
        if (segment.isEmpty()) {
            return "it has an empty segment ('//'), which containers collapse or refuse";
        }
        if (segment.equals(".") || segment.equals("..")) {
            return "containers resolve '" + segment + "' segments before the filter sees the path";
        }
        if (segment.contains(";")) {
            return "containers strip ';parameters' from the path before the filter sees it";
        }
        if (segment.contains("%")) {
            return "the path is matched decoded, so write the character itself instead of its '%' escape";
        }
        if (segment.contains("?") || segment.contains("#")) {
            return "'?' and '#' end the path; conditions on parameters are written '?name=value' after the"
                    + " whole template";
        }
        return null;
    }

    /** The template with every variable written {@code {}}: two templates with one shape match the same paths. */
    public String shape() {
        if (segments.isEmpty()) {
            return "/";
        }
        StringBuilder shape = new StringBuilder();
        for (String segment : segments) {
            shape.append('/').append(isVariable(segment) ? "{}" : segment);
        }
        return shape.toString();
    }

    /**
     * Whether {@code path} (relative to the context path, starting with {@code /}, one trailing slash already
     * removed) matches. The context root arrives as {@code /} or, from some containers, as the empty path.
     */
    public boolean matches(String path) {
        if (segments.isEmpty()) {
            return path.isEmpty() || path.equals("/");
        }
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
