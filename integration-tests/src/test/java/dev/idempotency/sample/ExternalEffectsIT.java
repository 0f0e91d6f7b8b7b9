package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.idempotency.IdempotencyRecords;
import dev.idempotency.sample.calls.CalleeResource;
import dev.idempotency.sample.calls.CallerResource;
import dev.idempotency.sample.calls.CallsApplication;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * The derived-key recipe for external effects (docs/failure-model.md, "External effects"), with two applications
 * on one server, each covered by the filter: the caller's order and its call to the callee are not one
 * transaction, so when the caller fails after the call, its order rolls back and the callee's effect stays. The
 * client retries with the same key; the caller runs again and calls the callee with the same derived key; the
 * callee replays instead of making its effect again. Each effect happens once.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ExternalEffectsIT {
    private static final String FAIL_AFTER_CALL = "{\"failAfterCall\": true}";

    @Deployment(name = "callee", order = 1, testable = false)
    static WebArchive callee() {
        tables();
        return covered(
                ShrinkWrap.create(WebArchive.class, "callee.war")
                        .addClasses(CallsApplication.class, CalleeResource.class),
                "POST /api/effects = effect:v1");
    }

    @Deployment(name = "caller", order = 2, testable = false)
    static WebArchive caller() {
        tables();
        return covered(
                ShrinkWrap.create(WebArchive.class, "caller.war")
                        .addClasses(CallsApplication.class, CallerResource.class),
                "POST /api/orders = order:v1");
    }

    /** Before the deployments, whose filter checks its tables as it starts. */
    static void tables() {
        try {
            Database.installFilterTables();
            Database.execute(
                    "CREATE TABLE IF NOT EXISTS caller_order (id bigserial PRIMARY KEY, request_key text NOT NULL)");
            Database.execute(
                    "CREATE TABLE IF NOT EXISTS callee_effect (id bigserial PRIMARY KEY, request_key text NOT NULL)");
        } catch (Exception e) {
            throw new IllegalStateException("could not prepare the test database", e);
        }
    }

    @Test
    void aRetryAfterAFailureCallsTheCalleeWithTheSameKeyAndEachEffectHappensOnce() {
        String key = UUID.randomUUID().toString();
        long effectsBefore = calleeEffects();

        HttpResponse<String> failed = placeOrder(key, FAIL_AFTER_CALL);
        assertEquals(500, failed.statusCode(), failed.body());
        assertEquals(0, callerOrders(key), "the caller's order rolled back with its failure");
        assertEquals(effectsBefore + 1, calleeEffects(), "the call had already made its effect");

        HttpResponse<String> retried = placeOrder(key, FAIL_AFTER_CALL);
        assertEquals(200, retried.statusCode(), retried.body());
        assertEquals("", retried.headers().firstValue("Idempotent-Replayed").orElse(""), "the caller ran again");
        assertEquals("true", Api.json(retried).get("calleeReplayed").asText(), retried.body());
        assertEquals(200, Api.json(retried).get("calleeStatus").asInt(), retried.body());
        assertEquals(1, callerOrders(key));
        assertEquals(effectsBefore + 1, calleeEffects(), "the callee replayed instead of making its effect again");

        // The callee was called with the derived key, never with the client's own.
        String derived = Api.json(retried).get("derivedKey").asText();
        assertEquals(
                1,
                Database.count("SELECT count(*) FROM callee_effect WHERE request_key = '" + derived + "'"),
                retried.body());
        assertEquals(1, Database.recordCount(IdempotencyRecords.headerScope("caller-service"), "effect:v1", derived));
        assertEquals(0, Database.count("SELECT count(*) FROM callee_effect WHERE request_key = '" + key + "'"));

        HttpResponse<String> again = placeOrder(key, FAIL_AFTER_CALL);
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(retried.body(), again.body());
        assertEquals(1, callerOrders(key));
        assertEquals(effectsBefore + 1, calleeEffects());
    }

    @Test
    void anotherClientKeyIsAnotherEffect() {
        long effectsBefore = calleeEffects();
        HttpResponse<String> first = placeOrder(UUID.randomUUID().toString(), "{}");
        HttpResponse<String> second = placeOrder(UUID.randomUUID().toString(), "{}");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals(200, second.statusCode(), second.body());
        assertEquals("null", Api.json(first).get("calleeReplayed").asText());
        assertEquals("null", Api.json(second).get("calleeReplayed").asText());
        assertNotEquals(
                Api.json(first).get("derivedKey").asText(),
                Api.json(second).get("derivedKey").asText());
        assertEquals(effectsBefore + 2, calleeEffects());
    }

    private static long callerOrders(String key) {
        return Database.count("SELECT count(*) FROM caller_order WHERE request_key = '" + key + "'");
    }

    /** Every effect the callee has made; the tests of this class run one after the other. */
    private static long calleeEffects() {
        return Database.count("SELECT count(*) FROM callee_effect");
    }

    private static HttpResponse<String> placeOrder(String key, String body) {
        URI orders = TestServer.context("caller").resolve("api/orders");
        return Api.send(HttpRequest.newBuilder(orders)
                .header("Content-Type", "application/json")
                .header("X-Gateway-User", "alice")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    /** The application, the filter's jar, and settings that cover its one operation by a gateway's caller header. */
    private static WebArchive covered(WebArchive application, String operation) {
        String settings = "operations = " + operation + "\n"
                + "scope-header = X-Gateway-User\n"
                + "datasource = " + TestServer.dataSource() + "\n";
        return application
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(new StringAsset(settings), "idempotency.properties");
    }
}
