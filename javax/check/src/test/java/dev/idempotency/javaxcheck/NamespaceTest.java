package dev.idempotency.javaxcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Each released jar names only its own namespace's EE types: no {@code jakarta.*} EE type or string in a javax jar,
 * no {@code javax.*} EE type or string in a jakarta jar, neither in the test kit (one jar for both). The one
 * exception, on purpose, is the initializer each filter jar carries for the other namespace, with its service file.
 */
class NamespaceTest {
    static final String GUARD = "dev/idempotency/namespace/WrongNamespaceInitializer.class";
    private static final String GUARD_NAME = "dev.idempotency.namespace.WrongNamespaceInitializer";
    private static final String INITIALIZER = "dev.idempotency.IdempotencyInitializer";
    private static final String SERVICES = "META-INF/services/";

    @Test
    void javaxJarsNameNoJakartaEeType() {
        for (Path jar : ReleasedJars.in("javax")) {
            assertEquals(
                    Map.of(),
                    foreignNames(jar, EeNamespace.JAKARTA, "jakarta"),
                    jar.getFileName().toString());
            assertFalse(namesOf(jar, EeNamespace.JAVAX).isEmpty(), jar.getFileName() + " was not transformed");
        }
    }

    @Test
    void jakartaJarsNameNoJavaxEeType() {
        for (Path jar : ReleasedJars.in("jakarta")) {
            assertEquals(
                    Map.of(),
                    foreignNames(jar, EeNamespace.JAVAX, "javax"),
                    jar.getFileName().toString());
        }
    }

    @Test
    void theTestKitNamesNeitherNamespaceSoOneJarServesBoth() {
        for (Path jar : ReleasedJars.in("neutral")) {
            assertEquals(
                    Set.of(),
                    namesOf(jar, EeNamespace.JAKARTA),
                    jar.getFileName().toString());
            assertEquals(
                    Set.of(), namesOf(jar, EeNamespace.JAVAX), jar.getFileName().toString());
        }
    }

    @Test
    void eachFilterJarRegistersItsInitializerForItsOwnNamespaceAndTheRefusalForTheOther() {
        Map<String, byte[]> jakarta = ReleasedJars.entries(filterJar("jakarta"));
        Map<String, byte[]> javax = ReleasedJars.entries(filterJar("javax"));

        assertEquals(INITIALIZER, service(jakarta, "jakarta.servlet.ServletContainerInitializer"));
        assertEquals(GUARD_NAME, service(jakarta, "javax.servlet.ServletContainerInitializer"));
        assertEquals(INITIALIZER, service(javax, "javax.servlet.ServletContainerInitializer"));
        assertEquals(GUARD_NAME, service(javax, "jakarta.servlet.ServletContainerInitializer"));
        assertTrue(EeNamespace.JAVAX
                .namesIn(GUARD, jakarta.get(GUARD))
                .contains("javax/servlet/ServletContainerInitializer"));
        assertTrue(EeNamespace.JAKARTA
                .namesIn(GUARD, javax.get(GUARD))
                .contains("jakarta/servlet/ServletContainerInitializer"));
    }

    /** Entries of {@code jar} that name the namespace they must not, but for the refusal for that namespace. */
    private static Map<String, Set<String>> foreignNames(Path jar, EeNamespace foreign, String foreignRoot) {
        Map<String, Set<String>> found = new TreeMap<>();
        ReleasedJars.entries(jar).forEach((name, bytes) -> {
            boolean refusal =
                    name.equals(GUARD) || name.equals(SERVICES + foreignRoot + ".servlet.ServletContainerInitializer");
            Set<String> names = foreign.namesIn(name, bytes);
            if (!refusal && !names.isEmpty()) {
                found.put(name, names);
            }
        });
        return found;
    }

    private static Set<String> namesOf(Path jar, EeNamespace namespace) {
        Set<String> names = new java.util.TreeSet<>();
        ReleasedJars.entries(jar).forEach((name, bytes) -> names.addAll(namespace.namesIn(name, bytes)));
        return names;
    }

    private static Path filterJar(String group) {
        return ReleasedJars.in(group).stream()
                .filter(jar -> jar.getFileName().toString().startsWith("idempotency-filter"))
                .findFirst()
                .orElseThrow();
    }

    private static String service(Map<String, byte[]> entries, String type) {
        byte[] file = entries.get(SERVICES + type);
        assertTrue(file != null, "no " + SERVICES + type);
        return new String(file, StandardCharsets.UTF_8).strip();
    }
}
