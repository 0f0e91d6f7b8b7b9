package dev.idempotency.sample.support;

import dev.idempotency.sample.SchemaInstaller;
import dev.idempotency.sample.faults.AsyncServlet;
import dev.idempotency.sample.faults.ConflictServlet;
import dev.idempotency.sample.faults.FailingCreditProjection;
import dev.idempotency.sample.faults.FailingCreditsResource;
import dev.idempotency.sample.faults.FaultResource;
import dev.idempotency.sample.faults.FormEchoServlet;
import dev.idempotency.sample.faults.FormPageServlet;
import dev.idempotency.sample.faults.FormParamResource;
import dev.idempotency.sample.faults.GateResource;
import dev.idempotency.sample.faults.GatedTopUpServlet;
import dev.idempotency.sample.faults.Gates;
import dev.idempotency.sample.faults.JmxReaderServlet;
import dev.idempotency.sample.faults.MultipartEchoServlet;
import dev.idempotency.sample.faults.ProcessedMessagePurgeResource;
import dev.idempotency.sample.faults.PublicEchoServlet;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The WAR the container tests deploy: the sample exactly as the build packaged it, plus fault-injecting
 * resources and a configuration that covers them. Named {@code sample.war}, so the API lives at the same
 * {@code /sample/api} as in the demo.
 */
public final class SampleDeployment {
    private SampleDeployment() {}

    public static WebArchive create() {
        return create("sample.war");
    }

    /** The test deployment with extra settings appended to the test configuration. */
    public static WebArchive withExtraSettings(String archiveName, String settings) throws IOException {
        String base = Files.readString(Path.of("src/test/resources/test-idempotency.properties"));
        return create(archiveName)
                .addAsWebInfResource(new StringAsset(base + settings + "\n"), "idempotency.properties");
    }

    /** The test deployment with its persistence unit on another datasource, such as one with stricter isolation. */
    public static WebArchive onDataSource(String archiveName, String jndiName) throws IOException {
        String persistence = Files.readString(Path.of(System.getProperty("sample.classes"), "META-INF/persistence.xml"))
                .replace("java:jboss/datasources/SampleDS", jndiName);
        return JavaxDeployment.forThisServer(
                jakarta(archiveName).addAsResource(new StringAsset(persistence), "META-INF/persistence.xml"));
    }

    /**
     * The same content under another archive name, for tests that deploy several variants at once; in its javax form
     * on a Jakarta EE 8 server.
     */
    public static WebArchive create(String archiveName) {
        return JavaxDeployment.forThisServer(jakarta(archiveName));
    }

    /** The deployment as a Jakarta EE 9.1 or 10 server takes it, before any javax renaming. */
    private static WebArchive jakarta(String archiveName) {
        File war = new File(System.getProperty("sample.war", "target/sample.war"));
        WebArchive archive = ShrinkWrap.create(ZipImporter.class, archiveName)
                .importFrom(war)
                .as(WebArchive.class)
                .addClasses(
                        FaultResource.class,
                        Gates.class,
                        GateResource.class,
                        PublicEchoServlet.class,
                        AsyncServlet.class,
                        FormEchoServlet.class,
                        FormParamResource.class,
                        FormPageServlet.class,
                        GatedTopUpServlet.class,
                        ConflictServlet.class,
                        JmxReaderServlet.class,
                        MultipartEchoServlet.class)
                .addAsWebResource(new File("src/test/resources/forms/gated-top-up.jsp"), "forms/gated-top-up.jsp")
                .addAsWebInfResource(
                        new File("src/test/resources/test-idempotency.properties"), "idempotency.properties");
        if (TestServer.isJakartaEe91()) {
            archive = asJakartaEe91(archive);
        }
        return TestServer.isWildFly()
                ? archive.addClasses(
                        FailingCreditProjection.class,
                        FailingCreditsResource.class,
                        ProcessedMessagePurgeResource.class)
                : withoutWildFlyResources(archive);
    }

    /**
     * The sample as a Jakarta EE 9.1 application has it: a Servlet 5.0 {@code web.xml} (the sample's says 6.0, which
     * an EE 9.1 server refuses to read), the rest unchanged.
     */
    private static WebArchive asJakartaEe91(WebArchive archive) {
        try (var webXml = archive.get("WEB-INF/web.xml").getAsset().openStream()) {
            String servlet5 = new String(webXml.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("web-app_6_0.xsd", "web-app_5_0.xsd")
                    .replace("version=\"6.0\"", "version=\"5.0\"");
            return archive.setWebXML(new StringAsset(servlet5));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The sample on Open Liberty, Payara or WildFly 26: without the JMS consumers (their queues are WildFly's), with the
     * persistence unit on that server's name for the test datasource, and with its tables created by the test,
     * because {@link SchemaInstaller} looks its datasource up under WildFly's name.
     */
    private static WebArchive withoutWildFlyResources(WebArchive archive) {
        try {
            Database.installSampleTables();
            String persistence = Files.readString(
                            Path.of(System.getProperty("sample.classes"), "META-INF/persistence.xml"))
                    .replace("java:jboss/datasources/SampleDS", TestServer.dataSource());
            archive.delete("/WEB-INF/classes/dev/idempotency/sample/messaging");
            archive.deleteClass(SchemaInstaller.class);
            return archive.addAsResource(new StringAsset(persistence), "META-INF/persistence.xml");
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("could not prepare the sample for " + TestServer.name(), e);
        }
    }

    /**
     * Another WildFly node beside the one Arquillian manages, with the container tests' deployment of the
     * sample, every port moved by {@code portOffset}, sharing the test PostgreSQL.
     */
    public static LocalServer startTestNode(String baseDirectoryName, int portOffset)
            throws IOException, InterruptedException {
        Path war = Path.of("target", baseDirectoryName + "-war", "sample.war");
        Files.createDirectories(war.getParent());
        create().as(ZipExporter.class).exportTo(new File(war.toString()), true);
        return LocalServer.start(
                Path.of(System.getProperty("jboss.home")), baseDirectoryName, Map.of("sample.war", war), portOffset);
    }
}
