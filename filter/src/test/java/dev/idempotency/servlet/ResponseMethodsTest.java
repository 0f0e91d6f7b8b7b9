package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.http.HttpServletResponseWrapper;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every response method of Servlet 4.0 (EE 8) and of the newest Servlet API on Maven Central (6.1, EE 11) is either
 * declared by {@link CapturingResponseWrapper} or named below with the reason it may pass through: a wrapper that
 * inherits a method from a newer {@code HttpServletResponseWrapper} forwards it to the client's response, around the
 * capture (Servlet 6.1's {@code sendRedirect(String, int, boolean)}, Servlet 4.0's {@code setStatus(int, String)}).
 */
class ResponseMethodsTest {
    /** Read by the build from Maven Central (filter/pom.xml); never on the class path. */
    private static final Path NEWEST_SERVLET_API = Path.of("target/servlet-apis/newest-servlet-api.jar");

    /** The methods that may reach the wrapped response, each with why nothing the client sees comes of it. */
    private static final Map<String, String> PASSING_THROUGH = Map.ofEntries(
            Map.entry("addCookie(Cookie)", "a cookie goes with the final answer and is never stored (Set-Cookie)"),
            Map.entry("encodeURL(String)", "reads only"),
            Map.entry("encodeRedirectURL(String)", "reads only"),
            Map.entry("encodeUrl(String)", "reads only (Servlet 4.0)"),
            Map.entry("encodeRedirectUrl(String)", "reads only (Servlet 4.0)"),
            Map.entry("getBufferSize()", "reads only"),
            Map.entry("getLocale()", "reads only"),
            Map.entry("getTrailerFields()", "reads only"),
            Map.entry(
                    "setTrailerFields(Supplier)",
                    "trailers are not part of a stored response: the answer is sent with a Content-Length, which"
                            + " carries none (docs/failure-model.md)"));

    @Test
    void theWrapperDeclaresEveryResponseMethodOfTheNewestServletApi() throws Exception {
        assertTrue(Files.isRegularFile(NEWEST_SERVLET_API), "the build copies " + NEWEST_SERVLET_API);
        try (URLClassLoader newest = new URLClassLoader(
                new URL[] {NEWEST_SERVLET_API.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> response = newest.loadClass("jakarta.servlet.http.HttpServletResponse");

            assertEquals(Set.of(), uncaptured(response, CapturingResponseWrapper.class));
        }
    }

    @Test
    void theWrapperDeclaresEveryResponseMethodOfServlet4() {
        assertEquals(
                Set.of(), uncaptured(javax.servlet.http.HttpServletResponse.class, CapturingResponseWrapper.class));
    }

    /** The check can fail: a wrapper written for Servlet 6.0 misses what 6.1 added. */
    @Test
    void findsTheServlet61MethodsThatAServlet60WrapperMisses() throws Exception {
        try (URLClassLoader newest = new URLClassLoader(
                new URL[] {NEWEST_SERVLET_API.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> response = newest.loadClass("jakarta.servlet.http.HttpServletResponse");

            Set<String> missed = uncaptured(response, Servlet60Wrapper.class);

            assertTrue(
                    missed.containsAll(Set.of(
                            "sendRedirect(String,int)",
                            "sendRedirect(String,boolean)",
                            "sendRedirect(String,int,boolean)",
                            "setCharacterEncoding(Charset)")),
                    missed::toString);
        }
    }

    private static Set<String> uncaptured(Class<?> responseApi, Class<?> wrapper) {
        Set<String> declared = Arrays.stream(wrapper.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()))
                .map(ResponseMethodsTest::signature)
                .collect(Collectors.toSet());
        return Arrays.stream(responseApi.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .map(ResponseMethodsTest::signature)
                .filter(signature -> !declared.contains(signature) && !PASSING_THROUGH.containsKey(signature))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Name and simple parameter types, so that a javax and a jakarta method compare equal. */
    private static String signature(Method method) {
        return method.getName()
                + Arrays.stream(method.getParameterTypes())
                        .map(Class::getSimpleName)
                        .collect(Collectors.joining(",", "(", ")"));
    }

    /** A wrapper that declares nothing: it inherits every method, and so forwards every one around a capture. */
    private static final class Servlet60Wrapper extends HttpServletResponseWrapper {
        Servlet60Wrapper(jakarta.servlet.http.HttpServletResponse response) {
            super(response);
        }
    }
}
