package dev.idempotency.adopt;

import java.util.regex.Pattern;

/**
 * One way a request reaches the application, as read from the WAR: a JAX-RS resource method, a servlet mapping,
 * or a prefix the command saw but could not follow (a sub-resource locator whose type it cannot read).
 *
 * <p>Immutable and thread-safe.
 *
 * @param method the HTTP method it serves, or {@code null} for any (a servlet mapping, a prefix)
 * @param pattern what it serves, as written: a JAX-RS template or a servlet URL pattern
 * @param servedBy who serves it and how it was found, for the report
 * @param paths the context-relative paths it serves
 * @param verified whether a match proves the path is served; {@code false} for a prefix the command cannot follow
 */
record Route(String method, String pattern, String servedBy, Pattern paths, boolean verified) {
    /** Whether it serves a request with this method and this context-relative path. */
    boolean serves(String requestMethod, String path) {
        return (method == null || method.equals(requestMethod))
                && paths.matcher(path).matches();
    }
}
