package dev.idempotency.namespace;

import java.util.Locale;

/**
 * The two Servlet API namespaces, each with the jars built for it. A server's namespace is told by the first
 * segment of its Servlet API's package, the one part of the name that no bytecode renamer rewrites.
 *
 * <p>Immutable and thread-safe.
 */
public enum ServletNamespace {
    /** {@code jakarta.servlet}: Jakarta EE 9 and later (Servlet 5.0 and later). */
    JAKARTA("Jakarta EE 9 or later (Servlet 5.0+)", ""),
    /** {@code javax.servlet}: Java EE 8 and Jakarta EE 8 (Servlet 4.0). */
    JAVAX("Jakarta EE 8 / Java EE 8 (Servlet 4.0)", "-javax");

    /** The Maven group of every jar of the project. */
    public static final String GROUP_ID = "dev.idempotency";

    private final String apiLevel;
    private final String artifactSuffix;

    ServletNamespace(String apiLevel, String artifactSuffix) {
        this.apiLevel = apiLevel;
        this.artifactSuffix = artifactSuffix;
    }

    /** The namespace of a Servlet API whose package (or any class name in it) is {@code servletPackage}. */
    public static ServletNamespace of(String servletPackage) {
        String root = servletPackage.substring(0, Math.max(servletPackage.indexOf('.'), 0));
        return valueOf(root.toUpperCase(Locale.ROOT));
    }

    /** The namespace the other jar is built for. */
    public ServletNamespace other() {
        return this == JAKARTA ? JAVAX : JAKARTA;
    }

    /** The EE and Servlet level, as a sentence for users says it. */
    public String apiLevel() {
        return apiLevel;
    }

    /** The filter's artifactId for this namespace: {@code idempotency-filter} or {@code idempotency-filter-javax}. */
    public String artifact() {
        return "idempotency-filter" + artifactSuffix;
    }

    /** The CDI jar's artifactId for this namespace. */
    public String cdiArtifact() {
        return "idempotency-cdi" + artifactSuffix;
    }

    /**
     * What a server of this namespace says when it finds the jar built for the other one: which jar is deployed,
     * which namespace the server has, and the coordinates of the jars to use instead.
     */
    public String refusalOfTheOtherJar() {
        ServletNamespace jar = other();
        return "idempotency: this application carries " + jar.artifact() + ", which is built for " + jar.apiLevel()
                + ", but this server runs " + apiLevel() + "; replace it with " + coordinates() + " (and "
                + jar.cdiArtifact() + ", if present, with " + cdiArtifact() + "). The application is not started:"
                + " with this jar the filter would never run and its endpoints would be unprotected.";
    }

    /** {@code groupId:artifactId} of the filter for this namespace. */
    public String coordinates() {
        return GROUP_ID + ":" + artifact();
    }
}
