package dev.idempotency.adopt;

import dev.idempotency.namespace.ServletNamespace;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which Servlet namespace a WAR is written for, and so which filter jar it needs: told by what its own classes
 * ({@code WEB-INF/classes}) name of the EE APIs, else by its {@code web.xml}'s schema, else by its libraries. The
 * EE level comes from {@code web.xml}'s version where it has one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param namespace the namespace the filter jar must match
 * @param level the EE level found, as the report says it, with what tells it
 * @param mixed what the WAR's own classes name of both namespaces, if they do: no server provides both
 */
record WarNamespace(ServletNamespace namespace, String level, Optional<String> mixed) {
    private static final Map<String, ServletNamespace> SCHEMAS = Map.of(
            "http://java.sun.com/xml/ns/j2ee", ServletNamespace.JAVAX,
            "http://java.sun.com/xml/ns/javaee", ServletNamespace.JAVAX,
            "http://xmlns.jcp.org/xml/ns/javaee", ServletNamespace.JAVAX,
            "https://jakarta.ee/xml/ns/jakartaee", ServletNamespace.JAKARTA);
    private static final Map<String, String> WEB_XML_LEVELS = Map.of(
            "2.4", "J2EE 1.4",
            "2.5", "Java EE 5",
            "3.0", "Java EE 6",
            "3.1", "Java EE 7",
            "4.0", "Java EE 8 / Jakarta EE 8",
            "5.0", "Jakarta EE 9 / 9.1",
            "6.0", "Jakarta EE 10",
            "6.1", "Jakarta EE 11");

    static WarNamespace of(WebXml webXml, List<ClassFacts> classes) {
        Map<ServletNamespace, Integer> own = count(classes, true);
        Map<ServletNamespace, Integer> libraries = count(classes, false);
        Optional<ServletNamespace> schema =
                Optional.ofNullable(webXml.schemaNamespace()).map(SCHEMAS::get);
        ServletNamespace namespace;
        String evidence;
        if (own.size() == 1 || (own.size() > 1 && schema.isEmpty())) {
            namespace = own.entrySet().stream()
                    .max(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
            evidence = own.get(namespace) + " class(es) of WEB-INF/classes use " + root(namespace) + ".* EE APIs";
        } else if (schema.isPresent()) {
            namespace = schema.get();
            evidence = "web.xml's schema " + webXml.schemaNamespace();
        } else if (!libraries.isEmpty()) {
            namespace = libraries.size() == 1 ? libraries.keySet().iterator().next() : ServletNamespace.JAKARTA;
            evidence = libraries.getOrDefault(namespace, 0) + " class(es) of WEB-INF/lib use " + root(namespace)
                    + ".* EE APIs";
        } else {
            namespace = ServletNamespace.JAKARTA;
            evidence = "nothing in the WAR names an EE API, so the current one is assumed";
        }
        String version = webXml.version();
        String level = schema.equals(Optional.of(namespace)) && WEB_XML_LEVELS.containsKey(version)
                ? WEB_XML_LEVELS.get(version) + " (web.xml " + version + ", " + root(namespace) + "; " + evidence + ")"
                : namespace.apiLevel() + " (" + root(namespace) + "; " + evidence + ")";
        Optional<String> mixed = own.size() > 1
                ? Optional.of("WEB-INF/classes name EE APIs of both namespaces (" + own.get(ServletNamespace.JAVAX)
                        + " class(es) javax.*, " + own.get(ServletNamespace.JAKARTA) + " jakarta.*): no server"
                        + " provides both; the filter jar is chosen for " + root(namespace))
                : Optional.empty();
        return new WarNamespace(namespace, level, mixed);
    }

    /** The filter jar's artifact this WAR needs. */
    String artifact() {
        return namespace.coordinates();
    }

    private static Map<ServletNamespace, Integer> count(List<ClassFacts> classes, boolean own) {
        Map<ServletNamespace, Integer> counts = new EnumMap<>(ServletNamespace.class);
        for (ClassFacts facts : classes) {
            if (facts.where().startsWith(WarFile.CLASSES) == own) {
                facts.namespaces().forEach(namespace -> counts.merge(namespace, 1, Integer::sum));
            }
        }
        return counts;
    }

    private static String root(ServletNamespace namespace) {
        return namespace.name().toLowerCase(java.util.Locale.ROOT);
    }
}
