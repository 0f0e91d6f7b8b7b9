package dev.idempotency.adopt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotencyFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command on small WARs made by the tests: its report, its exit status, and the copy it writes. */
class AdoptCommandTest {
    private static final String APPLICATION =
            """
            package shop;
            @jakarta.ws.rs.ApplicationPath("api")
            public class ShopApplication extends jakarta.ws.rs.core.Application {}
            """;
    private static final String ACCOUNT_RESOURCE =
            """
            package shop;
            import jakarta.ws.rs.*;
            @Path("/accounts")
            public class AccountResource {
                @POST public String open(String body) { return body; }
                @POST @Path("{id}/debits") public String debit(@PathParam("id") long id, String body) { return body; }
                @GET @Path("{id}") public String read(@PathParam("id") long id) { return ""; }
            }
            """;
    private static final String UPLOAD_SERVLET =
            """
            package shop;
            @jakarta.servlet.annotation.WebServlet("/uploads/*")
            public class UploadServlet extends jakarta.servlet.http.HttpServlet {}
            """;
    private static final String ONE_UNIT =
            """
            <persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
              <persistence-unit name="shop"><jta-data-source>java:jboss/datasources/ShopDS</jta-data-source></persistence-unit>
            </persistence>
            """;
    private static final String SETTINGS =
            """
            operations = POST /api/accounts/{id}/debits = debit:v1 ;\\
                         PUT /uploads/{name} = upload:v1
            """;

    @TempDir
    Path directory;

    private Path settings;

    private record Outcome(int status, String output) {}

    @BeforeEach
    void writeSettings() throws IOException {
        settings = Files.writeString(directory.resolve("idempotency.properties"), SETTINGS);
    }

    private TestWar shop() throws IOException {
        return new TestWar(directory)
                .file("WEB-INF/classes/META-INF/persistence.xml", ONE_UNIT)
                .classes(APPLICATION, ACCOUNT_RESOURCE, UPLOAD_SERVLET);
    }

    private Outcome run(String... arguments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = AdoptCommand.run(
                arguments, new PrintStream(bytes, true, StandardCharsets.UTF_8), Map.of("KEY_2026", "")::get);
        return new Outcome(status, bytes.toString(StandardCharsets.UTF_8));
    }

    private Outcome check(Path war) {
        return run("check", war.toString(), "--settings", settings.toString());
    }

    private void assertReports(Outcome outcome, int status, String... expected) {
        assertEquals(status, outcome.status(), outcome.output());
        for (String text : expected) {
            assertTrue(outcome.output().contains(text), "expected '" + text + "' in:\n" + outcome.output());
        }
    }

    @Test
    void reportsEveryOperationWithTheRouteThatServesItAndExits0ForACleanWar() throws IOException {
        Outcome outcome = check(shop().write("shop.war"));

        assertReports(
                outcome,
                0,
                "persistence unit 'shop' (JTA, jta-data-source java:jboss/datasources/ShopDS)",
                "records on datasource java:jboss/datasources/ShopDS, the JTA datasource of persistence unit 'shop'",
                "JAX-RS application path /api (@ApplicationPath on ShopApplication)",
                "POST /api/accounts/{id}/debits = debit:v1 → AccountResource.debit"
                        + " (JAX-RS POST /api/accounts/{id}/debits)",
                "PUT /uploads/{name} = upload:v1 → UploadServlet (@WebServlet /uploads/*)",
                "Result: nothing the command can see will fail.");
        assertFalse(outcome.output().contains("Will fail"), outcome.output());
    }

    @Test
    void namesAnOperationThatNoRouteServesAndExits1() throws IOException {
        Files.writeString(settings, "operations = POST /accounts/{id}/debits = debit:v1");

        assertReports(
                check(shop().write("shop.war")),
                1,
                "Will fail:",
                "POST /accounts/{id}/debits = debit:v1: no JAX-RS method or servlet mapping serves POST"
                        + " /accounts/{id}/debits; check the path relative to the context root");
    }

    @Test
    void aMethodTheResourceDoesNotServeMatchesNothing() throws IOException {
        Files.writeString(settings, "operations = PUT /api/accounts/{id} = replace:v1");

        assertReports(check(shop().write("shop.war")), 1, "no JAX-RS method or servlet mapping serves PUT");
    }

    @Test
    void withoutAJtaUnitOrADatasourceSettingSaysWhatToSet() throws IOException {
        Path war = new TestWar(directory)
                .file(
                        "WEB-INF/classes/META-INF/persistence.xml",
                        ONE_UNIT.replace("name=\"shop\"", "name=\"shop\" transaction-type=\"RESOURCE_LOCAL\""))
                .classes(APPLICATION, ACCOUNT_RESOURCE, UPLOAD_SERVLET)
                .write("local.war");

        assertReports(check(war), 1, "the WAR declares no JTA persistence unit", "set datasource to its JNDI name");
    }

    @Test
    void theDatasourceSettingStandsInForAJtaUnit() throws IOException {
        Files.writeString(settings, SETTINGS + "datasource = java:/jdbc/Shop\n");
        Path war = new TestWar(directory)
                .classes(APPLICATION, ACCOUNT_RESOURCE, UPLOAD_SERVLET)
                .write("jdbc.war");

        assertReports(check(war), 0, "records on datasource java:/jdbc/Shop, from the datasource setting");
    }

    @Test
    void refusesToGuessBetweenTwoJtaUnitsOneOfThemInALibraryJar() throws IOException {
        Path war = shop().library(
                        "reports.jar", Map.of("META-INF/persistence.xml", ONE_UNIT.replace("shop", "reports")))
                .write("two.war");

        assertReports(
                check(war),
                1,
                "persistence unit 'reports' (JTA, jta-data-source java:jboss/datasources/ShopDS) in"
                        + " WEB-INF/lib/reports.jar!/META-INF/persistence.xml",
                "several JTA persistence units [shop, reports]; set persistence-unit");
    }

    @Test
    void reportsSettingsThatDoNotParseWithTheFiltersOwnMessage() throws IOException {
        Files.writeString(settings, SETTINGS + "retension = P1D\n");

        assertReports(
                check(shop().write("shop.war")), 1, "do not parse: unknown setting(s) [retension]; known settings are");
    }

    @Test
    void refusesAWarThatIsAlreadyAdopted() throws IOException {
        Path war = shop().file("WEB-INF/idempotency.properties", SETTINGS)
                .library("idempotency-filter-0.0.9.jar", Map.of("dev/idempotency/IdempotencyFilter.class", ""))
                .write("adopted.war");

        assertReports(
                check(war),
                1,
                "WEB-INF/lib/idempotency-filter-0.0.9.jar is already in the WAR: the copy would have two filter jars",
                "WEB-INF/idempotency.properties is already in the WAR: the copy would have two");
    }

    @Test
    void aMetadataCompleteWebXmlIsInformationAndItsAnnotatedServletsAreIgnored() throws IOException {
        Path war = shop().file(
                        "WEB-INF/web.xml",
                        """
                        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0" metadata-complete="true">
                          <servlet><servlet-name>files</servlet-name><servlet-class>shop.UploadServlet</servlet-class></servlet>
                          <servlet-mapping><servlet-name>files</servlet-name><url-pattern>/uploads/*</url-pattern></servlet-mapping>
                        </web-app>
                        """)
                .write("complete.war");

        assertReports(
                check(war),
                0,
                "web.xml is metadata-complete: the container ignores @WebServlet",
                "still installs itself through its ServletContainerInitializer",
                "@WebServlet on UploadServlet [/uploads/*] ignored",
                "PUT /uploads/{name} = upload:v1 → servlet 'files' UploadServlet (servlet mapping /uploads/*)");
    }

    @Test
    void anAbsoluteOrderingWithoutOthersWillKeepTheFilterOut() throws IOException {
        Path war = shop().file(
                        "WEB-INF/web.xml",
                        """
                        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                          <absolute-ordering><name>security</name></absolute-ordering>
                        </web-app>
                        """)
                .write("ordered.war");

        assertReports(check(war), 1, "<absolute-ordering> without <others/>");
    }

    @Test
    void routesRegisteredInCodeMakeAnUnmatchedOperationUnverifiedNotFailing() throws IOException {
        Files.writeString(settings, "operations = POST /orders = order:v1");
        Path war = new TestWar(directory)
                .file("WEB-INF/classes/META-INF/persistence.xml", ONE_UNIT)
                .classes(
                        APPLICATION,
                        ACCOUNT_RESOURCE,
                        UPLOAD_SERVLET,
                        """
                        package shop;
                        public class Routes implements jakarta.servlet.ServletContextListener {
                            @Override public void contextInitialized(jakarta.servlet.ServletContextEvent event) {
                                event.getServletContext().addServlet("orders", UploadServlet.class).addMapping("/orders");
                            }
                        }
                        """)
                .write("code.war");

        assertReports(
                check(war),
                0,
                "Could not verify:",
                "POST /orders = order:v1: no route the command could read serves POST /orders",
                "shop.Routes.contextInitialized registers servlets in code");
    }

    @Test
    void followsInheritedAnnotationsSubResourceLocatorsAndRegularExpressions() throws IOException {
        Files.writeString(
                settings,
                "operations = POST /rest/ledgers/{ledger}/entries = entry:v1 ; DELETE /rest/ledgers/42 = close:v1");
        Path war = new TestWar(directory)
                .file("WEB-INF/classes/META-INF/persistence.xml", ONE_UNIT)
                .file(
                        "WEB-INF/web.xml",
                        """
                        <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.0">
                          <servlet-mapping><servlet-name>jakarta.ws.rs.core.Application</servlet-name>
                            <url-pattern>/rest/*</url-pattern></servlet-mapping>
                        </web-app>
                        """)
                .classes(
                        """
                        package ledger;
                        public interface LedgerApi {
                            @jakarta.ws.rs.DELETE @jakarta.ws.rs.Path("{id: [0-9]+}") void close(String id);
                        }
                        """,
                        """
                        package ledger;
                        @jakarta.ws.rs.Path("ledgers")
                        public class LedgerResource implements LedgerApi {
                            @Override public void close(String id) {}
                            @jakarta.ws.rs.Path("{ledger}/entries") public Entries entries() { return new Entries(); }
                        }
                        """,
                        """
                        package ledger;
                        public class Entries {
                            @jakarta.ws.rs.POST public void add(String entry) {}
                        }
                        """)
                .write("ledger.war");

        assertReports(
                check(war),
                0,
                "JAX-RS application path /rest (web.xml mapping of jakarta.ws.rs.core.Application)",
                "POST /rest/ledgers/{ledger}/entries = entry:v1 → Entries.add (JAX-RS POST"
                        + " /rest/ledgers/{ledger}/entries)",
                "DELETE /rest/ledgers/42 = close:v1 → LedgerResource.close (JAX-RS DELETE /rest/ledgers/{id: [0-9]+})");
    }

    @Test
    void adoptWritesACopyWithTheOriginalEntriesUnchangedPlusTheJarAndTheSettings() throws Exception {
        Path war = shop().file("index.html", "<p>shop</p>").write("shop.war");
        String before = sha256(war);
        Path out = directory.resolve("shop-idempotent.war");

        Outcome outcome = run(
                "adopt",
                war.toString(),
                "--settings",
                settings.toString(),
                "--out",
                out.toString(),
                "--filter-jar",
                fakeFilterJar().toString());

        assertReports(
                outcome,
                0,
                "Wrote " + out,
                "filter jar WEB-INF/lib/idempotency-filter-9.9.9.jar",
                "settings WEB-INF/idempotency.properties in the WAR: 2 operation(s)",
                "→ AccountResource.debit");
        assertEquals(before, sha256(war), "the original WAR is left byte for byte as it was");
        try (ZipFile original = new ZipFile(war.toFile());
                ZipFile copy = new ZipFile(out.toFile())) {
            List<? extends ZipEntry> originalEntries = Collections.list(original.entries());
            List<? extends ZipEntry> copyEntries = Collections.list(copy.entries());
            List<String> expectedNames = new ArrayList<>(names(originalEntries));
            expectedNames.addAll(List.of("WEB-INF/lib/idempotency-filter-9.9.9.jar", "WEB-INF/idempotency.properties"));
            assertEquals(expectedNames, names(copyEntries));
            for (int i = 0; i < originalEntries.size(); i++) {
                ZipEntry entry = originalEntries.get(i);
                assertArrayEquals(read(original, entry), read(copy, copyEntries.get(i)), entry.getName());
                assertEquals(entry.getTime(), copyEntries.get(i).getTime(), entry.getName());
            }
            assertArrayEquals(
                    Files.readAllBytes(settings), read(copy, copy.getEntry("WEB-INF/idempotency.properties")));
        }
    }

    @Test
    void adoptWritesNothingWhenTheCheckFindsAFailure() throws Exception {
        Files.writeString(settings, "operations = POST /nowhere = lost:v1");
        Path war = shop().write("shop.war");
        Path out = directory.resolve("out.war");

        Outcome outcome = run(
                "adopt",
                war.toString(),
                "--settings",
                settings.toString(),
                "--out",
                out.toString(),
                "--filter-jar",
                fakeFilterJar().toString());

        assertReports(outcome, 1, "Nothing written");
        assertFalse(Files.exists(out));
    }

    @Test
    void adoptNeverOverwritesTheOriginalNorAnExistingFileWithoutForce() throws Exception {
        Path war = shop().write("shop.war");
        String before = sha256(war);
        Path existing = Files.writeString(directory.resolve("existing.war"), "keep me");

        assertReports(
                run("adopt", war.toString(), "--settings", settings.toString(), "--out", war.toString(), "--force"),
                2,
                "--out names the WAR itself");
        assertReports(
                run("adopt", war.toString(), "--settings", settings.toString(), "--out", existing.toString()),
                2,
                "exists; add --force");
        assertEquals(before, sha256(war));
        assertEquals("keep me", Files.readString(existing));
    }

    @Test
    void refusesAFilterJarThatIsNotTheFilter() throws Exception {
        Path war = shop().write("shop.war");
        Path notTheFilter = directory.resolve("other.jar");
        Files.write(notTheFilter, TestWar.zip(Map.of("x/Y.class", new byte[0])));

        assertReports(
                run(
                        "adopt",
                        war.toString(),
                        "--settings",
                        settings.toString(),
                        "--out",
                        directory.resolve("o.war").toString(),
                        "--filter-jar",
                        notTheFilter.toString()),
                2,
                "other.jar is not the idempotency filter jar");
    }

    @Test
    void explainsItsUsage() {
        assertReports(run("--help"), 0, "usage: java -jar idempotency-adopt.jar check <war>");
        assertReports(run(), 2, "usage:");
        assertReports(run("adopt", "x.war"), 2, "adopt needs --settings and --out");
        assertReports(run("check", "missing.war"), 2, "The command could not run: no WAR at missing.war");
    }

    @Test
    void namesTheFilterClassAsTheFilterDoes() {
        assertEquals(IdempotencyFilter.class.getName(), WarCheck.FILTER_CLASS);
    }

    private Path fakeFilterJar() throws IOException {
        Path jar = directory.resolve("idempotency-filter-9.9.9.jar");
        Files.write(
                jar,
                TestWar.zip(Map.of(
                        WarCheck.FILTER_CLASS_ENTRY,
                        new byte[0],
                        "META-INF/services/jakarta.servlet.ServletContainerInitializer",
                        "dev.idempotency.IdempotencyInitializer\n".getBytes(StandardCharsets.UTF_8))));
        return jar;
    }

    private static List<String> names(List<? extends ZipEntry> entries) {
        return entries.stream().map(ZipEntry::getName).toList();
    }

    private static byte[] read(ZipFile zip, ZipEntry entry) throws IOException {
        try (InputStream in = zip.getInputStream(entry)) {
            return in.readAllBytes();
        }
    }

    private static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
