package dev.idempotency.javaxcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every type, method and field that the javax jars name exists in the Jakarta EE 8 and MicroProfile 4.1 APIs (the
 * last javax MicroProfile: Config 2.0, Metrics 3.0, OpenAPI 2.0, as WildFly 26 and Payara 5 ship them), or in the
 * jars themselves, or in the JDK. A renamed jar can still call what only Servlet 5 or 6, or MicroProfile OpenAPI 4,
 * has ({@code Schema.addType} did); only this check or a run on an EE 8 server finds that.
 */
class Ee8LinkTest {
    /** Micrometer: its adapter is loaded only after the class is found by name (ServerMetrics); WildFly 26 has none. */
    private static final List<String> OPTIONAL = List.of("io/micrometer/");

    @Test
    void javaxJarsNameNothingThatJakartaEe8AndMicroProfile41Lack() {
        List<Path> linked = new ArrayList<>(ReleasedJars.in("ee8-api"));
        linked.addAll(ReleasedJars.in("javax"));
        ApiIndex index = new ApiIndex(linked);
        for (Path jar : ReleasedJars.in("javax")) {
            Map<String, byte[]> entries = ReleasedJars.entries(jar);
            // The refusal for EE 9+ servers, which links against their API, not EE 8's (NamespaceTest covers it).
            entries.remove(NamespaceTest.GUARD);
            Set<String> unresolved = new UnresolvedReferences(index, OPTIONAL).in(entries);
            assertEquals(Set.of(), unresolved, jar.getFileName() + " names what EE 8 / MicroProfile 4.1 lack");
        }
    }

    @Test
    void theCheckFindsWhatOnlyServlet6AndOpenApi4Have() {
        // Against the EE 8 APIs alone, the jakarta jar's classes name no EE 8 type: the check must see that.
        ApiIndex index = new ApiIndex(ReleasedJars.in("ee8-api"));
        Path jakartaFilter = ReleasedJars.in("jakarta").stream()
                .filter(jar -> jar.getFileName().toString().startsWith("idempotency-filter"))
                .findFirst()
                .orElseThrow();
        Set<String> unresolved = new UnresolvedReferences(index, OPTIONAL).in(ReleasedJars.entries(jakartaFilter));

        assertTrue(unresolved.stream().anyMatch(line -> line.contains("missing type jakarta/servlet/Filter")));
    }
}
