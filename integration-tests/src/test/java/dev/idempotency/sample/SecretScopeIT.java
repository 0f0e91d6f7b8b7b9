package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.calls.CalleeResource;
import dev.idempotency.sample.calls.CallsApplication;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An application that checks its clients' API keys itself, adopted with {@code scope-header = Authorization}: the
 * one zero-code choice it has. The caller's secret must then reach neither the table nor the server's log, not
 * even while the table is unavailable and every claim fails with a WARNING naming the record.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SecretScopeIT {
    /** What a Stripe-style secret key looks like; unique per run, so a match can only come from this test. */
    private static final String SECRET =
            "sk_test_" + UUID.randomUUID().toString().replace("-", "");

    @Deployment(testable = false)
    static WebArchive application() throws Exception {
        Database.installFilterTables();
        Database.execute(
                "CREATE TABLE IF NOT EXISTS callee_effect (id bigserial PRIMARY KEY, request_key text NOT NULL)");
        String settings = "operations = POST /api/effects = effect:v1\n"
                + "scope-header = Authorization\n"
                + "datasource = " + TestServer.dataSource() + "\n";
        return ShrinkWrap.create(WebArchive.class, "secret-scope.war")
                .addClasses(CallsApplication.class, CalleeResource.class)
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(new StringAsset(settings), "idempotency.properties");
    }

    @Test
    void aSecretScopeHeaderIsKeptAsADigestInTheTableAndNeverReachesTheLog() throws Exception {
        Path log = Path.of(System.getProperty("jboss.home"), "standalone", "log", "server.log");
        long logBefore = Files.size(log);
        String key = UUID.randomUUID().toString();

        HttpResponse<String> first = effect(key);
        HttpResponse<String> retry = effect(key);
        assertEquals(200, first.statusCode(), first.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), retry.body());

        // The table away for a moment: every claim fails, and the filter logs each failure with the record's id.
        String unavailableKey = UUID.randomUUID().toString();
        Database.execute("ALTER TABLE request_result RENAME TO request_result_away");
        List<HttpResponse<String>> refused;
        try {
            refused = List.of(effect(unavailableKey), effect(unavailableKey));
        } finally {
            Database.execute("ALTER TABLE request_result_away RENAME TO request_result");
        }
        for (HttpResponse<String> answer : refused) {
            assertEquals(503, answer.statusCode(), answer.body());
            assertFalse(answer.body().contains(SECRET), "the problem's detail names the secret: " + answer.body());
        }

        String scope = Database.scopeOfKey(key).orElseThrow();
        assertTrue(scope.startsWith("header:sha256:"), "the stored scope is a digest: " + scope);
        assertFalse(scope.contains(SECRET.substring(8)), "the stored scope holds the secret: " + scope);
        assertEquals(
                0,
                Database.count("SELECT count(*) FROM request_result WHERE scope LIKE '%" + SECRET.substring(8) + "%'"),
                "no record's scope holds the secret");
        String logged = readFrom(log, logBefore);
        assertTrue(logged.contains("request_result"), "the unavailable table was logged, so the log was read");
        assertFalse(logged.contains(SECRET.substring(8)), "the server log holds the secret");
    }

    private static HttpResponse<String> effect(String key) {
        URI effects = TestServer.context("secret-scope").resolve("api/effects");
        return Api.send(HttpRequest.newBuilder(effects)
                .header("Authorization", "Bearer " + SECRET)
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    private static String readFrom(Path log, long offset) throws Exception {
        byte[] content = Files.readAllBytes(log);
        int from = (int) Math.min(offset, content.length);
        return new String(content, from, content.length - from, StandardCharsets.UTF_8);
    }
}
