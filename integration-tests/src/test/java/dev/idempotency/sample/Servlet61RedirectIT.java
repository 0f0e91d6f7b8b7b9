package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.faults.Servlet61RedirectServlet;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jakarta EE 11 (Servlet 6.1, the build's liberty-ee11 run): a redirect made with one of the overloads Servlet 6.1
 * added is captured like any other answer. Servlet 6.1's response wrapper forwards each overload to the client's
 * response, so a capture that declared only {@code sendRedirect(String)} let the 303 reach the client before the
 * commit and stored a 200 without its {@code Location}.
 */
@Tag("servlet-6.1")
@RunAsClient
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
class Servlet61RedirectIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws IOException {
        // Post/Redirect/Get stores its 303, as storable-statuses allows (docs/configuration.md#storable-statuses).
        return SampleDeployment.withExtraSettings("sample.war", "storable-statuses = 2xx, 3xx")
                .addClass(Servlet61RedirectServlet.class);
    }

    @ArquillianResource
    URL base;

    @Test
    void aServlet61RedirectIsStoredAndReplayedAsTheSame303() throws SQLException {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String path = "api/test-redirect?account=" + account;

        HttpResponse<String> first = Api.send(redirectPost(api, path, "prg-1"));
        HttpResponse<String> retry = Api.send(redirectPost(api, path, "prg-1"));

        String location = base.getPath() + "api/accounts/" + account;
        assertEquals(303, first.statusCode(), first.body());
        assertTrue(first.headers().firstValue("Location").orElse("").endsWith(location), first.headers()::toString);
        assertTrue(first.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(303, retry.statusCode(), retry.body());
        assertEquals(first.headers().firstValue("Location"), retry.headers().firstValue("Location"));
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(900, Database.balance(account));
        assertEquals(
                303,
                Database.record("alice", "redirect:v1", "prg-1").orElseThrow().status());
    }

    private static HttpRequest redirectPost(Api api, String path, String key) {
        return api.request("alice", path)
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
    }
}
