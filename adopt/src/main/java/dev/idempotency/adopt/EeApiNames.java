package dev.idempotency.adopt;

import dev.idempotency.namespace.ServletNamespace;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The EE API names a WAR's classes use, under either root: which namespace a name belongs to, and the one spelling
 * ({@code jakarta}) that the check's route reading is written in, so that a {@code javax} WAR's routes read as a
 * {@code jakarta} WAR's. Only the APIs that tell an EE application's level count; the JDK's own {@code javax}
 * packages ({@code javax.sql}, {@code javax.naming}, {@code javax.transaction.xa}...) and {@code javax.annotation}
 * and {@code javax.inject}, which libraries outside EE use too (JSR-305, Guice), never do.
 *
 * <p>Stateless and thread-safe.
 */
final class EeApiNames {
    private static final Pattern EE_NAME = Pattern.compile(
            "^(javax|jakarta)([./])(servlet|ws[./]rs|persistence|ejb|enterprise|transaction(?![./]xa(?:[./]|$))|faces"
                    + "|jms|websocket|batch|json)([./]|$)");

    private EeApiNames() {}

    /** The namespace of a class name (with dots or slashes), if it is one of an EE API that tells the level. */
    static Optional<ServletNamespace> namespaceOf(String className) {
        if (className == null) {
            return Optional.empty();
        }
        Matcher matcher = EE_NAME.matcher(className);
        return matcher.find() ? Optional.of(ServletNamespace.of(matcher.group(1) + ".")) : Optional.empty();
    }

    /** {@code className} as Jakarta EE 9+ spells it: {@code javax.ws.rs.Path} is read as {@code jakarta.ws.rs.Path}. */
    static String asJakarta(String className) {
        if (className == null
                || !className.startsWith("javax")
                || namespaceOf(className).isEmpty()) {
            return className;
        }
        return "jakarta" + className.substring("javax".length());
    }
}
