package dev.idempotency.adopt;

import dev.idempotency.config.Operation;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which routes of the application serve a configured operation. An operation's template and a route overlap
 * when some request path matches both: each {@code {variable}} of the operation is tried with the route's own
 * segment at that place and with two sample values, so a literal segment, a variable and a JAX-RS regular
 * expression on either side are all compared as the container would.
 *
 * <p>Stateless and thread-safe.
 */
final class OperationRoutes {
    private static final List<String> SAMPLE_SEGMENTS = List.of("1", "a");

    private OperationRoutes() {}

    /** The routes that serve some request of this operation, in the order given. */
    static List<Route> serving(Operation operation, List<Route> routes) {
        List<Route> serving = new ArrayList<>();
        for (Route route : routes) {
            if (samplePaths(operation.path().toString(), route.pattern()).stream()
                    .anyMatch(path -> route.serves(operation.method(), path))) {
                serving.add(route);
            }
        }
        return serving;
    }

    /** Concrete request paths of the operation's template, with its variables filled in. */
    static Set<String> samplePaths(String template, String routePattern) {
        if (template.equals("/")) {
            return Set.of("/");
        }
        String[] segments = template.substring(1).split("/");
        String[] routeSegments =
                routePattern.startsWith("/") ? routePattern.substring(1).split("/") : new String[0];
        List<String> paths = List.of("");
        for (int i = 0; i < segments.length; i++) {
            List<String> values = new ArrayList<>();
            if (segments[i].startsWith("{")) {
                if (i < routeSegments.length && !routeSegments[i].contains("{") && !routeSegments[i].contains("*")) {
                    values.add(routeSegments[i]);
                }
                values.addAll(SAMPLE_SEGMENTS);
            } else {
                values.add(segments[i]);
            }
            List<String> longer = new ArrayList<>();
            for (String path : paths) {
                for (String value : values) {
                    longer.add(path + "/" + value);
                }
            }
            paths = longer;
        }
        return new LinkedHashSet<>(paths);
    }
}
