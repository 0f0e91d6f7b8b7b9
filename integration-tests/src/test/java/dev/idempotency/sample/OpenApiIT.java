package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotency.openapi.DocumentDifferences;
import dev.idempotency.sample.openapi.OrdersResource;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The OpenAPI document a server with MicroProfile OpenAPI serves for a JAX-RS application that names {@code
 * IdempotencyOpenApiFilter} in {@code mp.openapi.filter}: the covered operations show the key header, the replay
 * headers and the problem responses, and nothing else differs from the document of the same WAR without it. The
 * two WARs are deployed one after the other (the server documents one application at {@code /openapi}); their
 * context roots differ, so the documents' {@code servers} are left out of the comparison.
 *
 * <p>Runs on Open Liberty only (its server has {@code mpOpenAPI-4.1}); the WildFly of these tests runs {@code
 * standalone-full.xml}, which has no MicroProfile OpenAPI subsystem.
 */
@Tag("liberty")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class OpenApiIT {
    private static final String PROBLEM = "urn:dev.idempotency:problem:";
    private static final String ORDERS = "/paths/~1api~1orders/post";
    private static final String CANCELLATIONS = "/paths/~1api~1orders~1{orderId}~1cancellations/post";

    /**
     * Orders and cancellations are covered (the template's variable named otherwise than the resource's);
     * quotes, reading an order and refunds (which the application does not have) are not in the document or not
     * covered.
     */
    private static final String OPERATIONS = "idempotency.operations = POST /api/orders = place-order:v1 ;\\\n"
            + "    POST /api/orders/{id}/cancellations = cancel-order:v1 after-expiry=refuse ;\\\n"
            + "    POST /api/refunds = refund:v1\n";

    @Deployment(name = "orders-plain", managed = false, testable = false)
    static WebArchive ordersPlain() {
        return orders("orders-plain.war", "");
    }

    @Deployment(name = "orders-documented", managed = false, testable = false)
    static WebArchive ordersDocumented() {
        return orders("orders.war", "mp.openapi.filter = dev.idempotency.IdempotencyOpenApiFilter\n");
    }

    @ArquillianResource
    Deployer deployer;

    @BeforeAll
    static void tables() throws Exception {
        // -Dit.test=OpenApiIT selects it on both servers, past the WildFly run's excludes.
        assumeTrue(TestServer.isLiberty(), "the WildFly of these tests has no MicroProfile OpenAPI");
        Database.installFilterTables();
    }

    @Test
    void coveredOperationsShowTheFilterAndNothingElseChanges() throws Exception {
        // Without a 422, so that a document kept from an earlier deployment cannot pass for the plain one.
        JsonNode plain = documentOf(
                "orders-plain",
                document -> !document.at(ORDERS).isMissingNode()
                        && document.at(ORDERS + "/responses/422").isMissingNode());
        JsonNode documented = documentOf("orders-documented", document -> !document.at(ORDERS + "/responses/422")
                .isMissingNode());

        List<String> changed = new ArrayList<>();
        Set<String> added = new TreeSet<>();
        DocumentDifferences.compare("", withoutServers(plain), withoutServers(documented), changed, added);

        String both = "\nwithout the filter: " + plain + "\nwith it: " + documented;
        assertEquals(List.of(), changed, both);
        assertEquals(
                new TreeSet<>(List.of(
                        // The resource method takes no parameter, so the key is its first.
                        ORDERS + "/parameters",
                        ORDERS + "/responses/201/headers",
                        ORDERS + "/responses/400",
                        ORDERS + "/responses/401",
                        ORDERS + "/responses/413",
                        ORDERS + "/responses/422",
                        ORDERS + "/responses/503",
                        // After the path parameter orderId.
                        CANCELLATIONS + "/parameters/1",
                        CANCELLATIONS + "/responses/200/headers",
                        CANCELLATIONS + "/responses/400",
                        CANCELLATIONS + "/responses/401",
                        CANCELLATIONS + "/responses/409",
                        CANCELLATIONS + "/responses/410",
                        CANCELLATIONS + "/responses/413",
                        CANCELLATIONS + "/responses/422",
                        CANCELLATIONS + "/responses/503")),
                added,
                both);
    }

    @Test
    void theAdditionsSayWhatTheFilterDoes() throws Exception {
        JsonNode document = documentOf(
                "orders-documented",
                candidate -> !candidate.at(ORDERS + "/responses/422").isMissingNode());

        JsonNode key = document.at(ORDERS + "/parameters/0");
        assertEquals("Idempotency-Key", key.at("/name").asText(), key.toString());
        assertEquals("header", key.at("/in").asText());
        assertFalse(key.at("/required").asBoolean(), "the rollout mode decides, at run time: " + key);
        assertTrue(key.at("/description").asText().contains("place-order:v1"), key.toString());

        JsonNode placed = document.at(ORDERS + "/responses/201/headers");
        assertFalse(placed.at("/Idempotent-Replayed").isMissingNode(), placed.toString());
        assertFalse(placed.at("/Idempotency-Key-Expires").isMissingNode(), placed.toString());

        JsonNode taken = document.at(ORDERS + "/responses/409");
        assertEquals("The order number is taken", taken.at("/description").asText(), "the application's own 409");
        assertEquals(
                PROBLEM + "idempotency-key-reused",
                document.at(ORDERS + "/responses/422/content/application~1problem+json/schema/properties/type/enum/0")
                        .asText());
        assertEquals(
                PROBLEM + "idempotency-key-expired",
                document.at(CANCELLATIONS
                                + "/responses/410/content/application~1problem+json/schema/properties/type/enum/0")
                        .asText());
        assertTrue(document.at("/paths/~1api~1refunds").isMissingNode(), "no path is invented");
    }

    /**
     * Deploys the WAR, waits until {@code /openapi} serves a document that shows it (the server may build the
     * document after the deployment reports success), and undeploys it again.
     */
    private JsonNode documentOf(String deployment, Predicate<JsonNode> shown) throws Exception {
        deployer.deploy(deployment);
        try {
            URI openapi = TestServer.context("openapi").resolve("/openapi?format=JSON");
            Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
            while (true) {
                HttpResponse<String> response = Api.send(HttpRequest.newBuilder(openapi)
                        .header("Accept", "application/json")
                        .timeout(Duration.ofSeconds(30))
                        .build());
                if (response.statusCode() == 200) {
                    JsonNode document = Api.json(response);
                    // Paths that carried the context root never show it: the templates are relative to it.
                    if (shown.test(document)) {
                        return document;
                    }
                    if (Instant.now().isAfter(deadline)) {
                        throw new AssertionError(deployment + ": /openapi never showed it: " + document);
                    }
                } else if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError(
                            deployment + ": /openapi answered " + response.statusCode() + ": " + response.body());
                }
                Thread.sleep(500);
            }
        } finally {
            deployer.undeploy(deployment);
        }
    }

    /** The JAX-RS application, the filter jar, its settings in MicroProfile Config, and the datasource in the file. */
    private static WebArchive orders(String archiveName, String openApiFilter) {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(OrdersResource.class.getPackage())
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsResource(new StringAsset(openApiFilter + OPERATIONS), "META-INF/microprofile-config.properties")
                // The rest of the settings stay where they are usually written; the document does not need them.
                .addAsWebInfResource(
                        new StringAsset("datasource = " + TestServer.dataSource() + "\n"), "idempotency.properties");
    }

    private static JsonNode withoutServers(JsonNode document) {
        ObjectNode copy = document.deepCopy();
        copy.remove("servers");
        return copy;
    }
}
