package dev.idempotency.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import javax.servlet.ServletException;
import org.junit.jupiter.api.Test;

class WrongNamespaceInitializerTest {
    @Test
    void refusesTheJakartaJarOnAnEe8ServerNamingTheJavaxArtifact() {
        // As compiled (against javax.servlet), this is the class the jakarta jar carries for EE 8 servers.
        ServletException refusal =
                assertThrows(ServletException.class, () -> new WrongNamespaceInitializer().onStartup(Set.of(), null));

        assertTrue(refusal.getMessage().contains("carries idempotency-filter, which is built for Jakarta EE 9"));
        assertTrue(refusal.getMessage().contains("replace it with dev.idempotency:idempotency-filter-javax"));
    }

    @Test
    void refusesTheJavaxJarOnAJakartaServerNamingTheJakartaArtifact() {
        String refusal = ServletNamespace.of("jakarta.servlet").refusalOfTheOtherJar();

        assertTrue(refusal.contains("carries idempotency-filter-javax, which is built for Jakarta EE 8"));
        assertTrue(refusal.contains("replace it with dev.idempotency:idempotency-filter "));
        assertTrue(refusal.contains("idempotency-cdi-javax, if present, with idempotency-cdi)"));
    }

    @Test
    void tellsTheNamespaceFromTheFirstSegmentOfAnyServletName() {
        assertEquals(ServletNamespace.JAVAX, ServletNamespace.of("javax.servlet.ServletContainerInitializer"));
        assertEquals(ServletNamespace.JAKARTA, ServletNamespace.of("jakarta.servlet"));
        assertEquals("idempotency-filter-javax", ServletNamespace.JAVAX.artifact());
    }
}
