package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.sample.support.TestServer;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A browser's key in a form field, on the wire, on WildFly 39 (RESTEasy) and GlassFish 5.1 (Jersey, javax): the page renders the field with the one-line
 * call, the form post carries it in its body, and the filter reads it there when no key header came. The Jakarta
 * REST resource behind it still gets every {@code @FormParam} (RESTEasy on WildFly and Liberty, Jersey on Payara and
 * GlassFish). A {@code multipart/form-data} post carries its key in a text part, a new boundary on each submit is the
 * same request, and a servlet with {@code @MultipartConfig} still reads its parameters and parts. The key belongs to
 * the session that rendered the form.
 */
@Tag("form-keys")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class FormKeysIT {
    private static final Pattern KEY_FIELD = Pattern.compile("name=\"idempotency-key\" value=\"([^\"]+)\"");

    @Deployment(testable = false)
    static WebArchive deployment() {
        return SampleDeployment.create();
    }

    @ArquillianResource
    URL base;

    private HttpClient browser;

    @BeforeEach
    void aBrowserWithCookies() {
        browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    @Test
    void aRepeatedPostOfOneRenderRunsOnceAndFormParamsStayIntact() throws Exception {
        String key = renderedKey();

        HttpResponse<String> first = post(form(key, "Ada"));
        HttpResponse<String> again = post(form(key, "Ada"));

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("name=Ada;key=" + key, first.body(), "@FormParam sees every field, the key field too");
        assertFalse(first.headers().firstValue("Idempotent-Replayed").isPresent());
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(first.body(), again.body());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(1, Database.recordCountForKey(key));
        String scope = Database.scopeOfKey(key).orElseThrow();
        assertTrue(scope.startsWith("alice session:sha256:"), "scoped by principal and session, was " + scope);
    }

    @Test
    void aNewRenderIsANewKeyAndANewRequest() throws Exception {
        String first = renderedKey();
        String second = renderedKey();

        assertFalse(first.equals(second), "each render carries its own key");
        assertEquals(200, post(form(first, "Ada")).statusCode());
        HttpResponse<String> other = post(form(second, "Ada"));
        assertEquals(200, other.statusCode());
        assertFalse(other.headers().firstValue("Idempotent-Replayed").isPresent());
    }

    @Test
    void anEditedResubmitIsRefusedAsAPageAndRunsNothing() throws Exception {
        // The sample's 422 page is a JSP: GlassFish on Debian's Java 8 runtime (no compiler) cannot compile it.
        Assumptions.assumeTrue(TestServer.isWildFly(), "the JSP error page needs a server that compiles JSP");
        String key = renderedKey();
        assertEquals(200, post(form(key, "Ada")).statusCode());

        HttpResponse<String> edited = post(form(key, "Grace"));

        assertEquals(422, edited.statusCode(), edited.body());
        // A person reads it: the application's error page for 422 (a JSP, where the server has JSP), never JSON.
        assertFalse(edited.headers().firstValue("Content-Type").orElse("").contains("json"), edited.body());
        assertEquals(1, Database.recordCountForKey(key));
    }

    @Test
    void aFormKeyWithoutASessionIsRefusedAndNothingIsRecorded() throws Exception {
        String key = "no-session-" + System.nanoTime();
        HttpResponse<String> refused =
                HttpClient.newHttpClient().send(formRequest(form(key, "Ada")), HttpResponse.BodyHandlers.ofString());

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals(0, Database.recordCountForKey(key));
    }

    @Test
    void aMultipartFormPostedTwiceWithNewBoundariesRunsOnceAndTheServletStillReadsItsParts() throws Exception {
        String key = renderedKey();

        HttpResponse<String> first = postMultipart("----WebKitFormBoundaryFirst1", key, "Ada");
        HttpResponse<String> again = postMultipart("----WebKitFormBoundarySecond2", key, "Ada");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals(
                "parameters:idempotency-key=" + key + ";name=Ada; parts:name[3];idempotency-key[" + key.length()
                        + "];receipt[10]; receipt:r.txt,text/plain,receipt 1\n",
                first.body(),
                "getParameter and getPart read the body the filter buffered");
        assertFalse(first.headers().firstValue("Idempotent-Replayed").isPresent());
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(first.body(), again.body());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(1, Database.recordCountForKey(key));
    }

    @Test
    void anEditedMultipartResubmitIsRefused() throws Exception {
        // The sample's 422 page is a JSP: GlassFish on Debian's Java 8 runtime (no compiler) cannot compile it.
        Assumptions.assumeTrue(TestServer.isWildFly(), "the JSP error page needs a server that compiles JSP");
        String key = renderedKey();
        assertEquals(200, postMultipart("----boundaryA", key, "Ada").statusCode());

        HttpResponse<String> edited = postMultipart("----boundaryB", key, "Grace");

        assertEquals(422, edited.statusCode(), edited.body());
        assertEquals(1, Database.recordCountForKey(key));
    }

    /** GETs the form page, which starts the session, and returns the key it rendered. */
    private String renderedKey() throws IOException, InterruptedException {
        HttpResponse<String> page = browser.send(
                authorized(HttpRequest.newBuilder(URI.create(base + "api/test-form-page")))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode(), page.body());
        Matcher field = KEY_FIELD.matcher(page.body());
        assertTrue(field.find(), "the page renders a key field: " + page.body());
        return field.group(1);
    }

    private HttpResponse<String> post(String body) throws IOException, InterruptedException {
        return browser.send(formRequest(body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest formRequest(String body) {
        return authorized(HttpRequest.newBuilder(URI.create(base + "api/test-form-params")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    /** Posts the form as a browser does for {@code enctype="multipart/form-data"}: two fields and a file. */
    private HttpResponse<String> postMultipart(String boundary, String key, String name)
            throws IOException, InterruptedException {
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\n" + name + "\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"idempotency-key\"\r\n\r\n" + key
                + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"receipt\"; filename=\"r.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nreceipt 1\n\r\n--" + boundary + "--\r\n";
        return browser.send(
                authorized(HttpRequest.newBuilder(URI.create(base + "api/test-multipart")))
                        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder request) {
        return request.header(
                "Authorization",
                "Basic " + Base64.getEncoder().encodeToString("alice:alice".getBytes(StandardCharsets.UTF_8)));
    }

    private static String form(String key, String name) {
        return "name=" + URLEncoder.encode(name, StandardCharsets.UTF_8) + "&idempotency-key="
                + URLEncoder.encode(key, StandardCharsets.UTF_8);
    }
}
