package dev.idempotency.sample.support;

import dev.idempotency.sample.faults.AsyncServlet;
import dev.idempotency.sample.faults.FaultResource;
import dev.idempotency.sample.faults.PublicEchoServlet;
import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
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

    /** The same content under another archive name, for tests that deploy several variants at once. */
    public static WebArchive create(String archiveName) {
        File war = new File(System.getProperty("sample.war", "target/sample.war"));
        return ShrinkWrap.create(ZipImporter.class, archiveName)
                .importFrom(war)
                .as(WebArchive.class)
                .addClasses(FaultResource.class, PublicEchoServlet.class, AsyncServlet.class)
                .addAsWebInfResource(
                        new File("src/test/resources/test-idempotency.properties"), "idempotency.properties");
    }
}
