package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.IdempotencyRecords;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import dev.idempotency.sample.view.InjectedViewResource;
import dev.idempotency.sample.view.KeyEcho;
import dev.idempotency.sample.view.PlainViewServlet;
import dev.idempotency.sample.view.ViewApplication;
import java.io.File;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.EmptyAsset;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The application's view of its key (docs/cdi.md): a CDI application with the {@code idempotency-cdi}
 * jar injects {@code IdempotentExecution}, even into an application-scoped bean, and sees the request's scope,
 * operation, key and first execution; an application without CDI reads the same from the request attribute, and
 * the filter's jar leaves CDI off for it.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ApplicationViewIT {
    @Deployment(name = "view-cdi", testable = false)
    static WebArchive cdiApplication() {
        tables();
        return covered(ShrinkWrap.create(WebArchive.class, "view-cdi.war")
                        .addClasses(ViewApplication.class, InjectedViewResource.class, KeyEcho.class)
                        .addAsWebInfResource(EmptyAsset.INSTANCE, "beans.xml")
                        .addAsLibrary(new File(System.getProperty("cdi.jar")), "idempotency-cdi.jar"))
                .addAsWebInfResource(new StringAsset(settings("POST /api/views = view:v1")), "idempotency.properties");
    }

    @Deployment(name = "view-plain", testable = false)
    static WebArchive applicationWithoutCdi() {
        tables();
        return covered(ShrinkWrap.create(WebArchive.class, "view-plain.war").addClasses(PlainViewServlet.class))
                .addAsWebInfResource(
                        new StringAsset(settings("POST /views = plain-view:v1")), "idempotency.properties");
    }

    /** Before the deployments, whose filter checks its tables as it starts. */
    static void tables() {
        try {
            Database.installFilterTables();
        } catch (Exception e) {
            throw new IllegalStateException("could not prepare the test database", e);
        }
    }

    @Test
    void aCdiApplicationInjectsItsExecution() {
        String key = UUID.randomUUID().toString();
        HttpResponse<String> response = post("view-cdi", "api/views", key);

        assertEquals(200, response.statusCode(), response.body());
        JsonNode view = Api.json(response);
        assertTrue(view.get("covered").asBoolean(), response.body());
        assertEquals(IdempotencyRecords.headerScope("alice"), view.get("scope").asText());
        assertEquals("view:v1", view.get("operation").asText());
        assertEquals(key, view.get("key").asText());
        assertTrue(view.get("firstExecution").asBoolean());
        assertEquals(key, view.get("attributeKey").asText(), "the request attribute holds the same execution");
        assertEquals(key, view.get("echoedKey").asText(), "an application-scoped bean reads this request's key");
        assertEquals(43, view.get("derived").asText().length());

        // Another request, another key, through the same application-scoped bean.
        String otherKey = UUID.randomUUID().toString();
        JsonNode other = Api.json(post("view-cdi", "api/views", otherKey));
        assertEquals(otherKey, other.get("echoedKey").asText());

        // The replay never runs the application: its stored body still names the first run.
        HttpResponse<String> replay = post("view-cdi", "api/views", key);
        assertEquals("true", replay.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(response.body(), replay.body());
    }

    @Test
    void aKeylessRequestHasNoExecution() {
        HttpResponse<String> response = post("view-cdi", "api/views", null);

        assertEquals(200, response.statusCode(), response.body());
        assertFalse(Api.json(response).get("covered").asBoolean(), response.body());
        assertFalse(Api.json(response).get("attribute").asBoolean(), response.body());
    }

    @Test
    void anApplicationWithoutCdiReadsTheRequestAttributeAndCdiStaysOff() {
        String key = UUID.randomUUID().toString();
        HttpResponse<String> response = post("view-plain", "views", key);

        assertEquals(200, response.statusCode(), response.body());
        JsonNode view = Api.json(response);
        assertTrue(view.get("covered").asBoolean(), response.body());
        assertEquals(IdempotencyRecords.headerScope("alice"), view.get("scope").asText());
        assertEquals("plain-view:v1", view.get("operation").asText());
        assertEquals(key, view.get("key").asText());
        assertTrue(view.get("firstExecution").asBoolean());
        assertFalse(view.get("beanManagerBound").asBoolean(), "no BeanManager: the server runs no CDI for it");
        assertFalse(view.get("cdiCurrent").asBoolean(), "CDI.current() fails: the server runs no CDI for it");

        JsonNode keyless = Api.json(post("view-plain", "views", null));
        assertFalse(keyless.get("covered").asBoolean());
        assertFalse(keyless.get("cdiCurrent").asBoolean());
    }

    private static HttpResponse<String> post(String contextRoot, String path, String key) {
        HttpRequest.Builder request = HttpRequest.newBuilder(
                        TestServer.context(contextRoot).resolve(path))
                .header("Content-Type", "application/json")
                .header("X-Gateway-User", "alice")
                .POST(HttpRequest.BodyPublishers.ofString("{}"));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return Api.send(request.build());
    }

    private static String settings(String operation) {
        return "operations = " + operation + "\n"
                + "scope-header = X-Gateway-User\n"
                + "datasource = " + TestServer.dataSource() + "\n";
    }

    private static WebArchive covered(WebArchive application) {
        return application.addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar");
    }
}
