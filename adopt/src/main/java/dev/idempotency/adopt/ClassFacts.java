package dev.idempotency.adopt;

import dev.idempotency.namespace.ServletNamespace;
import java.util.List;
import java.util.Set;

/**
 * What the check knows of one class file of the WAR, read without loading it: its place in the type hierarchy
 * and the annotations that map requests to it.
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the binary name with dots, such as {@code com.example.AccountResource}
 * @param superName the superclass's name, or {@code null} for {@code java.lang.Object} itself
 * @param where the WAR entry it came from: {@code WEB-INF/classes/} or a library jar
 * @param concrete whether it can be instantiated: neither an interface nor abstract
 * @param path its JAX-RS {@code @Path}, or {@code null}
 * @param applicationPath its JAX-RS {@code @ApplicationPath}, or {@code null}
 * @param servletPatterns the URL patterns of its {@code @WebServlet}, empty when it has none
 * @param httpMethod for an annotation type carrying {@code @HttpMethod}, the method it designates, else {@code
 *     null}
 * @param callsAddServlet the methods that register servlets in code ({@code ServletContext.addServlet}), as
 *     {@code Class.method}
 * @param namespaces the EE namespaces whose APIs it names (both, for a class that mixes them)
 */
record ClassFacts(
        String name,
        String superName,
        List<String> interfaces,
        String where,
        boolean concrete,
        String path,
        String applicationPath,
        List<String> servletPatterns,
        String httpMethod,
        List<MethodFacts> methods,
        List<String> callsAddServlet,
        Set<ServletNamespace> namespaces) {

    /**
     * One method with the JAX-RS annotations on it.
     *
     * @param annotations the names (with dots) of the annotation types on it
     * @param path its {@code @Path}, or {@code null}
     * @param returnType the name of the type it returns, for following a sub-resource locator
     */
    record MethodFacts(String name, String descriptor, Set<String> annotations, String path, String returnType) {}

    String simpleName() {
        return name.substring(name.lastIndexOf('.') + 1);
    }
}
