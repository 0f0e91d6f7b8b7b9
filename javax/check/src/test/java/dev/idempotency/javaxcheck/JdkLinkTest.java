package dev.idempotency.javaxcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The jars run on every JVM their servers run on: they are Java 8 class files (WebLogic 14.1.1, GlassFish 5.1 and JBoss
 * EAP 7.4 before CP7 run on Java 8; GlassFish 6.2, Payara 6 and WildFly 27 to 30 on Java 11), and every JDK type,
 * method and field they name exists in the class library of a real Java 8 and a real Java 11 runtime (Debian's,
 * fetched by build-tools/old-jdks.sh). A call newer than Java 8, a covariant override a newer JDK added ({@code
 * ByteBuffer.flip()}), or a class Java 11 removed ({@code javax.xml.bind}) would fail there only when the code ran.
 */
class JdkLinkTest {
    private static final int JAVA_8 = 52;
    private static final int JAVA_11 = 55;
    /** Where a reference names the JDK's own class library, as the unresolved lines spell it. */
    private static final List<String> JDK_PACKAGES =
            List.of(" java/", " javax/sql/", " javax/xml/", " javax/naming/", " javax/net/", " javax/crypto/", " jdk/");
    /** Loaded only after it is found by name (ServerMetrics). */
    private static final List<String> OPTIONAL = List.of("io/micrometer/");

    @Test
    void jakartaAndJavaxJarsAreJava8ClassFiles() {
        List<Path> jars = new ArrayList<>(ReleasedJars.in("jakarta"));
        jars.addAll(ReleasedJars.in("javax"));

        assertEquals(Set.of(), newerThan(JAVA_8, jars));
    }

    @Test
    void theToolsAndTheTestKitAreJava11ClassFiles() {
        List<Path> jars = new ArrayList<>(ReleasedJars.in("tools"));
        jars.addAll(ReleasedJars.in("neutral"));

        assertEquals(Set.of(), newerThan(JAVA_11, jars));
    }

    @Test
    void theVersionCheckFindsJava11ClassFiles() {
        // The test kit is Java 11 class files: it calls java.net.http.
        assertTrue(newerThan(JAVA_8, ReleasedJars.in("neutral")).stream().anyMatch(line -> line.endsWith("55")));
    }

    @Test
    void theToolsAndTheTestKitCallNothingThatJava11Lacks() {
        JdkLibrary java11 = library(11);
        List<Path> jars = new ArrayList<>(ReleasedJars.in("tools"));
        jars.addAll(ReleasedJars.in("neutral"));
        for (Path jar : jars) {
            // Linked against the JDK only: the EE APIs and drivers they use are the user's, not the JVM's.
            Set<String> jdk = new TreeSet<>();
            for (String line : unresolved("tools", ReleasedJars.entries(jar), "ee10-api", java11)) {
                if (JDK_PACKAGES.stream().anyMatch(line::contains)) {
                    jdk.add(line);
                }
            }
            assertEquals(Set.of(), jdk, jar + " on " + java11);
        }
    }

    @ParameterizedTest(name = "{0} jars on Java {2}")
    @CsvSource({"jakarta, ee10-api, 8", "jakarta, ee10-api, 11", "javax, ee8-api, 8", "javax, ee8-api, 11"})
    void theFilterJarsNameNothingThatTheJdkLacks(String group, String apiGroup, int feature) {
        JdkLibrary jdk = library(feature);
        for (Path jar : ReleasedJars.in(group)) {
            Map<String, byte[]> entries = ReleasedJars.entries(jar);
            // Each filter jar's refusal of the other namespace names that namespace's Servlet API, which its own EE API
            // lacks (NamespaceTest covers it).
            entries.remove(NamespaceTest.GUARD);
            assertEquals(Set.of(), unresolved(group, entries, apiGroup, jdk), jar + " on " + jdk);
        }
    }

    @Test
    void theLinkCheckFindsWhatJava8Lacks() {
        // The test kit is Java 11 class files and calls List.of (Java 9).
        JdkLibrary java8 = library(8);
        Path testkit = ReleasedJars.in("neutral").get(0);

        Set<String> unresolved = unresolved("neutral", ReleasedJars.entries(testkit), "ee8-api", java8);

        assertTrue(unresolved.stream().anyMatch(line -> line.contains("java/util/List.of")), unresolved::toString);
    }

    private static JdkLibrary library(int feature) {
        Optional<JdkLibrary> library = JdkLibrary.of(feature);
        if (library.isEmpty()) {
            System.out.println(JdkLibrary.absent(feature));
        }
        assumeTrue(library.isPresent(), () -> JdkLibrary.absent(feature));
        return library.get();
    }

    /** What {@code entries} name that the API jars, the jars of {@code group} and that Java's class library lack. */
    private static Set<String> unresolved(String group, Map<String, byte[]> entries, String apiGroup, JdkLibrary jdk) {
        List<Path> linked = new ArrayList<>(ReleasedJars.in(apiGroup));
        linked.addAll(ReleasedJars.in(group));
        return new UnresolvedReferences(new ApiIndex(linked, jdk), OPTIONAL).in(entries);
    }

    private static Set<String> newerThan(int major, List<Path> jars) {
        Set<String> newer = new TreeSet<>();
        for (Path jar : jars) {
            ReleasedJars.entries(jar).forEach((name, bytes) -> {
                int version = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
                if (name.endsWith(".class") && version > major) {
                    newer.add(jar.getFileName() + "!" + name + " is class file version " + version);
                }
            });
        }
        return newer;
    }
}
