package dev.idempotency.adopt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.namespace.ServletNamespace;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command on WARs of both namespaces: it reads which one a WAR is written for (its classes' EE imports, its
 * web.xml), reports the EE level, adds the matching filter jar, and refuses the other one naming the right artifact.
 */
class NamespaceAdoptionTest {
    private static final String JAVAX_WEB_XML =
            """
            <web-app xmlns="http://xmlns.jcp.org/xml/ns/javaee" version="4.0">
              <servlet-mapping><servlet-name>javax.ws.rs.core.Application</servlet-name>
                <url-pattern>/api/*</url-pattern></servlet-mapping>
            </web-app>
            """;
    private static final String JAVAX_RESOURCE =
            """
            package legacy;
            import javax.ws.rs.*;
            @Path("/accounts")
            public class AccountResource {
                @POST @Path("{id}/debits") public String debit(@PathParam("id") long id, String body) { return body; }
            }
            """;
    private static final String JAKARTA_RESOURCE =
            """
            package shop;
            import jakarta.ws.rs.*;
            @Path("/accounts")
            public class AccountResource {
                @POST @Path("{id}/debits") public String debit(@PathParam("id") long id, String body) { return body; }
            }
            """;
    private static final String JAKARTA_APPLICATION =
            """
            package shop;
            @jakarta.ws.rs.ApplicationPath("api")
            public class ShopApplication extends jakarta.ws.rs.core.Application {}
            """;
    private static final String DATASOURCE_SETTINGS =
            """
            operations = POST /api/accounts/{id}/debits = debit:v1
            datasource = java:jboss/datasources/LegacyDS
            """;

    @TempDir
    Path directory;

    private Path settings;

    private record Outcome(int status, String output) {}

    @BeforeEach
    void writeSettings() throws IOException {
        settings = Files.writeString(directory.resolve("idempotency.properties"), DATASOURCE_SETTINGS);
    }

    private Path javaxWar() throws IOException {
        return new TestWar(directory)
                .file("WEB-INF/web.xml", JAVAX_WEB_XML)
                .classes(JAVAX_RESOURCE)
                .write("legacy.war");
    }

    private Path jakartaWar() throws IOException {
        return new TestWar(directory)
                .classes(JAKARTA_APPLICATION, JAKARTA_RESOURCE)
                .write("shop.war");
    }

    @Test
    void readsAJavaxWarAsJakartaEe8AndFindsItsRoutes() throws IOException {
        Outcome outcome = run("check", javaxWar().toString(), "--settings", settings.toString());

        assertReports(
                outcome,
                0,
                "EE level Java EE 8 / Jakarta EE 8 (web.xml 4.0, javax; 1 class(es) of WEB-INF/classes use javax.*",
                "the filter jar for it is dev.idempotency:idempotency-filter-javax",
                "POST /api/accounts/{id}/debits = debit:v1 → AccountResource.debit");
    }

    @Test
    void readsAJakartaWarWithoutWebXmlFromItsClasses() throws IOException {
        Outcome outcome = run("check", jakartaWar().toString(), "--settings", settings.toString());

        assertReports(
                outcome,
                0,
                "EE level Jakarta EE 9 or later (Servlet 5.0+) (jakarta; 2 class(es) of WEB-INF/classes use jakarta.*",
                "the filter jar for it is dev.idempotency:idempotency-filter" + System.lineSeparator());
    }

    @Test
    void refusesToAdoptAJavaxWarWithTheJakartaJarNamingTheJavaxArtifact() throws IOException {
        Path out = directory.resolve("legacy-idempotent.war");

        Outcome outcome = adopt(javaxWar(), out, fakeFilterJar(ServletNamespace.JAKARTA));

        assertReports(
                outcome,
                1,
                "idempotency-filter-9.9.9.jar is idempotency-filter, built for Jakarta EE 9 or later",
                "but the WAR is Java EE 8 / Jakarta EE 8",
                "use dev.idempotency:idempotency-filter-javax",
                "Nothing written");
        assertFalse(Files.exists(out));
    }

    @Test
    void refusesToAdoptAJakartaWarWithTheJavaxJarNamingTheJakartaArtifact() throws IOException {
        Path out = directory.resolve("shop-idempotent.war");

        Outcome outcome = adopt(jakartaWar(), out, fakeFilterJar(ServletNamespace.JAVAX));

        assertReports(
                outcome,
                1,
                "idempotency-filter-javax-9.9.9.jar is idempotency-filter-javax, built for Jakarta EE 8",
                "use dev.idempotency:idempotency-filter ",
                "Nothing written");
        assertFalse(Files.exists(out));
    }

    @Test
    void adoptsAJavaxWarWithTheJavaxJar() throws IOException {
        Path out = directory.resolve("legacy-idempotent.war");

        Outcome outcome = adopt(javaxWar(), out, fakeFilterJar(ServletNamespace.JAVAX));

        assertReports(outcome, 0, "filter jar WEB-INF/lib/idempotency-filter-javax-9.9.9.jar");
        try (ZipFile copy = new ZipFile(out.toFile())) {
            assertNotNull(copy.getEntry("WEB-INF/lib/idempotency-filter-javax-9.9.9.jar"));
        }
    }

    @Test
    void theCheckOfAnAdoptedJavaxWarFailsWhenItHoldsTheJakartaJar() throws IOException {
        Path war = new TestWar(directory)
                .file("WEB-INF/web.xml", JAVAX_WEB_XML)
                .file("WEB-INF/idempotency.properties", DATASOURCE_SETTINGS)
                .file(
                        "WEB-INF/lib/idempotency-filter-9.9.9.jar",
                        Files.readAllBytes(fakeFilterJar(ServletNamespace.JAKARTA)))
                .classes(JAVAX_RESOURCE)
                .write("hand-adopted.war");

        assertReports(run("check", war.toString()), 1, "Will fail", "use dev.idempotency:idempotency-filter-javax");
    }

    @Test
    void choosesTheEmbeddedJarByTheWarsNamespace() throws IOException {
        List<FilterJar> embedded = List.of(
                FilterJar.fromFile(fakeFilterJar(ServletNamespace.JAKARTA)),
                FilterJar.fromFile(fakeFilterJar(ServletNamespace.JAVAX)));

        assertEquals(
                "idempotency-filter-javax-9.9.9.jar",
                FilterJar.choose(embedded, ServletNamespace.JAVAX).fileName());
        assertEquals(
                "idempotency-filter-9.9.9.jar",
                FilterJar.choose(embedded, ServletNamespace.JAKARTA).fileName());
    }

    private Outcome adopt(Path war, Path out, Path filterJar) {
        return run(
                "adopt",
                war.toString(),
                "--settings",
                settings.toString(),
                "--out",
                out.toString(),
                "--filter-jar",
                filterJar.toString());
    }

    private Outcome run(String... arguments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = AdoptCommand.run(arguments, new PrintStream(bytes, true, StandardCharsets.UTF_8), name -> null);
        return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
    }

    private static void assertReports(Outcome outcome, int status, String... expected) {
        assertEquals(status, outcome.status(), outcome.output());
        for (String text : expected) {
            assertTrue(outcome.output().contains(text), "expected '" + text + "' in:\n" + outcome.output());
        }
    }

    /**
     * A filter jar as each build lays it out: the filter class, its initializer in its own namespace's service
     * file, and the refusal in the other's.
     */
    private Path fakeFilterJar(ServletNamespace namespace) throws IOException {
        Path jar = directory.resolve(namespace.artifact() + "-9.9.9.jar");
        Files.write(
                jar,
                TestWar.zip(Map.of(
                        WarCheck.FILTER_CLASS_ENTRY,
                        new byte[0],
                        serviceFile(namespace),
                        "dev.idempotency.IdempotencyInitializer\n".getBytes(StandardCharsets.UTF_8),
                        serviceFile(namespace.other()),
                        "dev.idempotency.namespace.WrongNamespaceInitializer\n".getBytes(StandardCharsets.UTF_8))));
        return jar;
    }

    private static String serviceFile(ServletNamespace namespace) {
        return "META-INF/services/" + namespace.name().toLowerCase(Locale.ROOT)
                + ".servlet.ServletContainerInitializer";
    }
}
