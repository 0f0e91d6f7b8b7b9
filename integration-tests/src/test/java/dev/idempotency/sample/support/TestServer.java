package dev.idempotency.sample.support;

import java.net.URI;

/**
 * What differs between the servers the container tests run on, as the build's failsafe execution for each
 * server sets it: the HTTP port, the JNDI name of the test datasource, and the server's name.
 */
public final class TestServer {
    private TestServer() {}

    /**
     * {@code wildfly} (WildFly 39, the sample's own server), {@code wildfly26}, {@code liberty} or {@code payara}.
     */
    public static String name() {
        return System.getProperty("test.server", "wildfly");
    }

    public static boolean isWildFly() {
        return name().equals("wildfly");
    }

    public static boolean isLiberty() {
        return name().equals("liberty");
    }

    /** Whether this run's server offers Jakarta EE 9.1 (Servlet 5.0) rather than 10: the build's liberty-ee91 run. */
    public static boolean isJakartaEe91() {
        return "9.1".equals(System.getProperty("test.jakarta.ee"));
    }

    /**
     * Whether this run's server offers Jakarta EE 8 ({@code javax.*}, Servlet 4.0): the build's wildfly26 and
     * liberty-ee8 runs, whose deployments carry the javax jar and are renamed to javax by the build's transformer
     * rules.
     */
    public static boolean isJakartaEe8() {
        return "8".equals(System.getProperty("test.jakarta.ee"));
    }

    /**
     * The Java feature release the server runs on, as the build chose its JVM: 8 or 11 for the runs on Debian's old
     * runtimes (build-tools/old-jdks.sh), the newest JDK of at least 21 on the machine for {@code 21+} (GlassFish 8,
     * {@link ModernJdk}), else 17. {@code ServerJvmIT} holds the server to it.
     */
    public static int javaFeature() {
        String java = System.getProperty("test.server.java", "17");
        return java.endsWith("+")
                ? ModernJdk.atLeast(minimumJava()).map(ModernJdk::feature).orElse(0)
                : Integer.parseInt(java);
    }

    /** For a run on the newest JDK of at least some Java ({@code test.server.java=21+}), that Java; else 0. */
    public static int minimumJava() {
        String java = System.getProperty("test.server.java", "17");
        return java.endsWith("+") ? Integer.parseInt(java.substring(0, java.length() - 1)) : 0;
    }

    /** The JNDI name of the datasource on the test PostgreSQL (non-XA on every server). */
    public static String dataSource() {
        return System.getProperty("test.datasource", "java:jboss/datasources/SampleDS");
    }

    /** The root URL of a deployment's context, such as {@code http://127.0.0.1:8080/inventory/}. */
    public static URI context(String contextRoot) {
        return URI.create("http://127.0.0.1:" + System.getProperty("test.http.port", "8080") + "/" + contextRoot + "/");
    }
}
