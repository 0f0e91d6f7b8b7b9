package dev.idempotency.javaxcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The released filter jars, on a class path shaped like each kind of server's (its Servlet API and the jar, nothing
 * else), found through {@link ServiceLoader} as containers find initializers: the jar of the other namespace yields
 * only its refusal, which fails with the message that names the right artifact.
 */
class WrongJarRefusalTest {
    @Test
    void theJakartaJarOnAnEe8ServerRefusesNamingTheJavaxArtifact() throws Exception {
        String refusal = refusalOf(filterJar("jakarta"), ReleasedJars.in("ee8-api"), "javax");

        assertTrue(refusal.contains("carries idempotency-filter, which is built for Jakarta EE 9"), refusal);
        assertTrue(refusal.contains("replace it with dev.idempotency:idempotency-filter-javax"), refusal);
    }

    @Test
    void theJavaxJarOnAnEe10ServerRefusesNamingTheJakartaArtifact() throws Exception {
        String refusal = refusalOf(filterJar("javax"), ReleasedJars.in("ee10-servlet"), "jakarta");

        assertTrue(refusal.contains("carries idempotency-filter-javax, which is built for Jakarta EE 8"), refusal);
        assertTrue(refusal.contains("replace it with dev.idempotency:idempotency-filter "), refusal);
    }

    @Test
    void theJavaxJarOnAnEe8ServerYieldsItsOwnInitializerAndItLoads() throws Exception {
        try (URLClassLoader server = serverWith(filterJar("javax"), ReleasedJars.in("ee8-api"))) {
            List<String> initializers = initializers(server, "javax");

            assertEquals(List.of("dev.idempotency.IdempotencyInitializer"), initializers);
        }
    }

    /** What the server's {@code ServletContainerInitializer} lookup finds in {@code jar}, started as a server would. */
    private static String refusalOf(Path jar, List<Path> servletApi, String serverRoot) throws Exception {
        try (URLClassLoader server = serverWith(jar, servletApi)) {
            assertEquals(
                    List.of("dev.idempotency.namespace.WrongNamespaceInitializer"), initializers(server, serverRoot));
            Class<?> initializerType = server.loadClass(serverRoot + ".servlet.ServletContainerInitializer");
            Class<?> contextType = server.loadClass(serverRoot + ".servlet.ServletContext");
            Object refusal =
                    ServiceLoader.load(initializerType, server).iterator().next();
            InvocationTargetException thrown = assertThrows(InvocationTargetException.class, () -> initializerType
                    .getMethod("onStartup", Set.class, contextType)
                    .invoke(refusal, Set.of(), null));
            assertEquals(
                    serverRoot + ".servlet.ServletException",
                    thrown.getCause().getClass().getName());
            return thrown.getCause().getMessage();
        }
    }

    private static List<String> initializers(URLClassLoader server, String serverRoot) throws Exception {
        Class<?> initializerType = server.loadClass(serverRoot + ".servlet.ServletContainerInitializer");
        List<String> found = new ArrayList<>();
        for (Object initializer : ServiceLoader.load(initializerType, server)) {
            found.add(initializer.getClass().getName());
        }
        return found;
    }

    private static URLClassLoader serverWith(Path jar, List<Path> api) {
        URL[] path = Stream.concat(Stream.of(jar), api.stream())
                .map(WrongJarRefusalTest::url)
                .toArray(URL[]::new);
        return new URLClassLoader(path, ClassLoader.getPlatformClassLoader());
    }

    private static URL url(Path file) {
        try {
            return file.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(file.toString(), e);
        }
    }

    private static Path filterJar(String group) {
        return ReleasedJars.in(group).stream()
                .filter(jar -> jar.getFileName().toString().startsWith("idempotency-filter"))
                .findFirst()
                .orElseThrow();
    }
}
