package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.jvm.JvmServlet;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.JavaxDeployment;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The server runs on the Java the build chose for this run (Debian's Java 8 or 11 for the old-JVM runs), so that a
 * run on the wrong JVM cannot pass: the rest of the core suite then proves the filter on that Java.
 */
@Tag("core")
@RunAsClient
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
class ServerJvmIT {
    @Deployment(testable = false)
    static WebArchive deployment() {
        return JavaxDeployment.forThisServer(
                ShrinkWrap.create(WebArchive.class, "jvm.war").addClass(JvmServlet.class));
    }

    @ArquillianResource
    URL base;

    @Test
    void theServerRunsOnTheJavaOfThisRun() {
        int feature = TestServer.javaFeature();

        HttpResponse<String> java = new Api(base).get("alice", "java");

        assertEquals(200, java.statusCode(), java.body());
        assertEquals(feature == 8 ? "1.8" : Integer.toString(feature), java.body());
    }
}
