package dev.idempotency.adopt;

import dev.idempotency.adopt.ClassFacts.MethodFacts;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every route the command can read from a WAR without running it: JAX-RS resource methods under their
 * application path, and servlet mappings from {@code web.xml}, {@code web-fragment.xml} and {@code @WebServlet}.
 * What it sees but cannot read (servlets registered in code, resources without an application path) is kept as
 * a list of reasons, so that an operation it cannot find a route for is reported as unverified, not as failing.
 *
 * <p>Immutable once read; thread-safe.
 *
 * @param routes the routes read, JAX-RS first
 * @param applicationPaths each JAX-RS application path found, with where it was declared
 * @param unreadable why some routes may exist that the command could not read; empty if it read them all
 * @param notes facts worth telling that change nothing, such as annotations the container will ignore
 */
record ApplicationRoutes(
        List<Route> routes, List<String> applicationPaths, List<String> unreadable, List<String> notes) {
    private static final String APPLICATION = "jakarta.ws.rs.core.Application";
    private static final String APPLICATION_PARAMETER = "jakarta.ws.rs.Application";
    private static final Map<String, String> HTTP_METHODS = Map.of(
            "jakarta.ws.rs.GET", "GET",
            "jakarta.ws.rs.POST", "POST",
            "jakarta.ws.rs.PUT", "PUT",
            "jakarta.ws.rs.DELETE", "DELETE",
            "jakarta.ws.rs.PATCH", "PATCH",
            "jakarta.ws.rs.HEAD", "HEAD",
            "jakarta.ws.rs.OPTIONS", "OPTIONS");
    /** How deep sub-resource locators are followed; a cycle of locators ends here too. */
    private static final int MAX_LOCATOR_DEPTH = 5;

    /**
     * @param webXml the WAR's {@code web.xml}, already merged with nothing
     * @param fragments the {@code web-fragment.xml} of each library jar that has one
     * @param classes the facts of every class of the WAR and its libraries
     */
    static ApplicationRoutes read(WebXml webXml, List<WebXml> fragments, List<ClassFacts> classes) {
        Map<String, ClassFacts> byName =
                classes.stream().collect(Collectors.toMap(ClassFacts::name, Function.identity(), (a, b) -> a));
        List<Route> routes = new ArrayList<>();
        List<String> applicationPaths = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        List<String> notes = new ArrayList<>();

        List<WebXml> descriptors = new ArrayList<>(List.of(webXml));
        if (webXml.metadataComplete()) {
            if (!fragments.isEmpty()) {
                notes.add(fragments.size() + " web-fragment.xml in WEB-INF/lib ignored: web.xml is metadata-complete");
            }
        } else {
            descriptors.addAll(fragments);
        }
        Map<String, String> bases = applicationBases(descriptors, byName, applicationPaths);
        List<ClassFacts> resources =
                classes.stream().filter(c -> c.concrete() && c.path() != null).collect(Collectors.toList());
        if (!resources.isEmpty() && bases.isEmpty()) {
            unreadable.add(resources.size() + " JAX-RS resource class(es) but no application path (no @ApplicationPath"
                    + " on an Application subclass, no Application servlet mapping in web.xml): the server decides"
                    + " where they are served");
        }
        for (String base : new LinkedHashMap<>(bases).values()) {
            for (ClassFacts resource : resources) {
                addResourceMethods(
                        resource, PathPatterns.joinJaxRs(base, resource.path()), byName, routes, new HashSet<>(), 0);
            }
        }

        for (WebXml descriptor : descriptors) {
            for (WebXml.Servlet servlet : descriptor.servlets()) {
                if (isJaxRsServlet(servlet, byName)) {
                    continue;
                }
                String who = "servlet '" + servlet.name() + "'"
                        + (servlet.className() == null ? "" : " " + simple(servlet.className()));
                for (String pattern : servlet.urlPatterns()) {
                    routes.add(new Route(
                            null,
                            pattern,
                            who + " (servlet mapping " + shown(pattern) + ")",
                            PathPatterns.servlet(pattern),
                            true));
                }
            }
        }
        for (ClassFacts servlet : classes) {
            if (servlet.servletPatterns().isEmpty()) {
                continue;
            }
            if (webXml.metadataComplete()) {
                notes.add("@WebServlet on " + servlet.simpleName() + " " + servlet.servletPatterns()
                        + " ignored: web.xml is metadata-complete");
                continue;
            }
            for (String pattern : servlet.servletPatterns()) {
                routes.add(new Route(
                        null,
                        pattern,
                        servlet.simpleName() + " (@WebServlet " + shown(pattern) + ")",
                        PathPatterns.servlet(pattern),
                        true));
            }
        }
        for (ClassFacts registering : classes) {
            for (String method : registering.callsAddServlet()) {
                unreadable.add(method + " registers servlets in code (ServletContext.addServlet); their mappings"
                        + " cannot be read from the WAR");
            }
        }
        return new ApplicationRoutes(List.copyOf(routes), List.copyOf(applicationPaths), unreadable, notes);
    }

    /**
     * The base path of each JAX-RS application, keyed by its class (or the Application servlet's name): a
     * {@code web.xml} mapping of the application overrides its {@code @ApplicationPath} (JAX-RS 3.1, 2.3.2).
     */
    private static Map<String, String> applicationBases(
            List<WebXml> descriptors, Map<String, ClassFacts> byName, List<String> applicationPaths) {
        Map<String, String> bases = new LinkedHashMap<>();
        for (ClassFacts application : byName.values()) {
            if (application.concrete()
                    && application.applicationPath() != null
                    && extendsType(application, APPLICATION, byName)) {
                bases.put(application.name(), application.applicationPath());
                applicationPaths.add(PathPatterns.joinJaxRs(application.applicationPath()) + " (@ApplicationPath on "
                        + application.simpleName() + ")");
            }
        }
        for (WebXml descriptor : descriptors) {
            for (WebXml.Servlet servlet : descriptor.servlets()) {
                if (isJaxRsServlet(servlet, byName) && !servlet.urlPatterns().isEmpty()) {
                    String application = servlet.initParameters().getOrDefault(APPLICATION_PARAMETER, servlet.name());
                    String pattern = servlet.urlPatterns().get(0);
                    applicationPaths.removeIf(found -> found.endsWith("on " + simple(application) + ")"));
                    bases.put(application, pattern);
                    applicationPaths.add(PathPatterns.joinJaxRs(pattern) + " (web.xml mapping of "
                            + (application.equals(APPLICATION) ? APPLICATION : simple(application)) + ")");
                }
            }
        }
        return bases;
    }

    /** The servlet a JAX-RS application is deployed as, by name or by the init-param that names it. */
    private static boolean isJaxRsServlet(WebXml.Servlet servlet, Map<String, ClassFacts> byName) {
        if (servlet.name().equals(APPLICATION) || servlet.initParameters().containsKey(APPLICATION_PARAMETER)) {
            return true;
        }
        ClassFacts named = byName.get(servlet.name());
        return servlet.className() == null && named != null && extendsType(named, APPLICATION, byName);
    }

    private static void addResourceMethods(
            ClassFacts resource,
            String prefix,
            Map<String, ClassFacts> byName,
            List<Route> routes,
            Set<String> visiting,
            int depth) {
        if (depth > MAX_LOCATOR_DEPTH || !visiting.add(resource.name())) {
            return;
        }
        for (MethodFacts method : annotatedMethods(resource, byName)) {
            String httpMethod = httpMethod(method, byName);
            String template = PathPatterns.joinJaxRs(prefix, method.path());
            if (httpMethod != null) {
                routes.add(new Route(
                        httpMethod,
                        template,
                        resource.simpleName() + "." + method.name() + " (JAX-RS " + httpMethod + " " + template + ")",
                        PathPatterns.jaxRs(template),
                        true));
            } else if (method.path() != null) {
                ClassFacts located = byName.get(method.returnType());
                if (located != null) {
                    addResourceMethods(located, template, byName, routes, visiting, depth + 1);
                } else {
                    routes.add(new Route(
                            null,
                            template,
                            resource.simpleName() + "." + method.name() + " (JAX-RS sub-resource locator " + template
                                    + " returning " + simple(method.returnType())
                                    + ", which the command cannot follow)",
                            PathPatterns.jaxRsPrefix(template),
                            false));
                }
            }
        }
        visiting.remove(resource.name());
    }

    /**
     * The class's JAX-RS methods, with those it inherits: a method without JAX-RS annotations of its own takes
     * those of the method it overrides in a superclass or interface (JAX-RS 3.1, section 3.6).
     */
    private static List<MethodFacts> annotatedMethods(ClassFacts resource, Map<String, ClassFacts> byName) {
        Map<String, MethodFacts> methods = new LinkedHashMap<>();
        List<ClassFacts> hierarchy = new ArrayList<>();
        collectHierarchy(resource, byName, hierarchy, new HashSet<>());
        for (ClassFacts type : hierarchy) {
            for (MethodFacts method : type.methods()) {
                boolean annotated = method.path() != null || httpMethod(method, byName) != null;
                if (annotated) {
                    methods.putIfAbsent(method.name() + method.descriptor(), method);
                }
            }
        }
        return List.copyOf(methods.values());
    }

    private static void collectHierarchy(
            ClassFacts type, Map<String, ClassFacts> byName, List<ClassFacts> hierarchy, Set<String> seen) {
        if (!seen.add(type.name())) {
            return;
        }
        hierarchy.add(type);
        List<String> supertypes = new ArrayList<>();
        if (type.superName() != null) {
            supertypes.add(type.superName());
        }
        supertypes.addAll(type.interfaces());
        for (String supertype : supertypes) {
            ClassFacts found = byName.get(supertype);
            if (found != null) {
                collectHierarchy(found, byName, hierarchy, seen);
            }
        }
    }

    /** The method's HTTP method: a JAX-RS one, or one designated by an annotation type of the WAR's own. */
    private static String httpMethod(MethodFacts method, Map<String, ClassFacts> byName) {
        for (String annotation : method.annotations()) {
            String builtIn = HTTP_METHODS.get(annotation);
            if (builtIn != null) {
                return builtIn;
            }
            ClassFacts custom = byName.get(annotation);
            if (custom != null && custom.httpMethod() != null) {
                return custom.httpMethod();
            }
        }
        return null;
    }

    private static boolean extendsType(ClassFacts type, String supertype, Map<String, ClassFacts> byName) {
        for (ClassFacts current = type; current != null; current = byName.get(current.superName())) {
            if (supertype.equals(current.superName())) {
                return true;
            }
            if (current.superName() == null) {
                return false;
            }
        }
        return false;
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String shown(String urlPattern) {
        return urlPattern.isEmpty() ? "\"\" (the context root)" : urlPattern;
    }
}
