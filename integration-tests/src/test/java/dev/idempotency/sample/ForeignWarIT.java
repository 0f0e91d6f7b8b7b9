package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.foreign.inventory.Item;
import dev.idempotency.foreign.ledger.Entry;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.JavaxDeployment;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
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
 * Adoption in applications written by someone else ({@code dev.idempotency.foreign}): the test adds only the
 * filter's jar and {@code WEB-INF/idempotency.properties}, and changes nothing in the application. The
 * inventory application has a {@code metadata-complete} web.xml (its servlet and EJB declared in descriptors),
 * drop-and-create schema generation, JSON through JSON-B, a {@code @Stateless} EJB and no login; the ledger
 * application is a JAX-RS resource on a {@code @Stateless} EJB whose JSON RESTEasy writes with JSON-B, with
 * {@code create} schema generation and container authentication.
 */
@Tag("foreign-wars")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ForeignWarIT {
    private static final String ADD_ITEM = "{\"name\": \"bolt\", \"quantity\": 3}";

    @Deployment(name = "inventory-plain", managed = false, testable = false)
    static WebArchive inventoryAlone() throws Exception {
        return JavaxDeployment.forThisServer(inventory("inventory-alone.war"));
    }

    @Deployment(name = "inventory-adopted", managed = false, testable = false)
    static WebArchive inventoryAdopted() throws Exception {
        return JavaxDeployment.forThisServer(adopt(inventory("inventory.war"), "inventory-idempotency.properties"));
    }

    @Deployment(name = "ledger-plain", managed = false, testable = false)
    static WebArchive ledgerAlone() throws Exception {
        return JavaxDeployment.forThisServer(ledger("ledger-alone.war"));
    }

    @Deployment(name = "ledger-adopted", managed = false, testable = false)
    static WebArchive ledgerAdopted() throws Exception {
        return JavaxDeployment.forThisServer(adopt(ledger("ledger.war"), "ledger-idempotency.properties"));
    }

    @ArquillianResource
    Deployer deployer;

    private final Api ledger = new Api(url("ledger"));

    @BeforeAll
    static void filterTables() throws Exception {
        // The adopting team's migration: the applications themselves know nothing about these tables.
        Database.installFilterTables();
    }

    @Test
    void applicationJsonIsByteIdenticalWithAndWithoutTheJar() {
        List<String> alone = inventoryConversation("inventory-plain", "inventory-alone");
        List<String> adopted = inventoryConversation("inventory-adopted", "inventory");

        assertEquals(alone, adopted);
        // The item's null note is left out: JSON-B, not Jackson, still writes the application's JSON.
        assertTrue(alone.get(0).startsWith("201 "), alone.get(0));
        assertTrue(alone.get(0).contains("{\"id\":1,"), alone.get(0));
        assertTrue(!alone.get(0).contains("note"), alone.get(0));
    }

    @Test
    void jaxRsJsonIsByteIdenticalWithAndWithoutTheJar() throws SQLException {
        List<String> alone = ledgerConversation("ledger-plain", "ledger-alone");
        List<String> adopted = ledgerConversation("ledger-adopted", "ledger");

        assertEquals(alone, adopted);
        // The entry's null memo is left out: RESTEasy still writes the application's JSON with JSON-B; with
        // Jackson in charge (WFLYRS0018) it would print "memo":null.
        assertTrue(alone.get(0).startsWith("200 "), alone.get(0));
        assertTrue(!alone.get(0).contains("memo"), alone.get(0));
    }

    @Test
    void adoptedApplicationWithoutLoginGetsReplayMismatchAndOneExecution() throws Exception {
        deployer.deploy("inventory-adopted");
        String key = UUID.randomUUID().toString();
        try {
            HttpResponse<String> first = addItem("carol", key, ADD_ITEM);
            HttpResponse<String> retry = addItem("carol", key, ADD_ITEM);
            assertEquals(201, first.statusCode(), first.body());
            assertEquals(201, retry.statusCode(), retry.body());
            assertEquals(first.body(), retry.body());
            assertEquals(
                    "true", retry.headers().firstValue("Idempotent-Replayed").orElse(""));

            HttpResponse<String> changed = addItem("carol", key, "{\"name\": \"bolt\", \"quantity\": 4}");
            assertEquals(422, changed.statusCode(), changed.body());
            assertTrue(changed.body().contains("idempotency-key-reused"), changed.body());

            HttpResponse<String> otherCaller = addItem("dave", key, ADD_ITEM);
            assertEquals(201, otherCaller.statusCode(), otherCaller.body());
            assertNotEquals(first.body(), otherCaller.body(), "the gateway's callers are separate scopes");

            HttpResponse<String> anonymous = addItem(null, key, ADD_ITEM);
            assertEquals(401, anonymous.statusCode(), anonymous.body());
            assertTrue(anonymous.body().contains("X-Gateway-User"), anonymous.body());

            String longName = "n".repeat(2_000);
            HttpResponse<String> large =
                    addItem("carol", UUID.randomUUID().toString(), "{\"name\": \"" + longName + "\", \"quantity\": 1}");
            assertEquals(201, large.statusCode(), large.body());

            assertEquals(
                    1,
                    Duplicates.sendAtOnce(
                            10, addItemRequest("erin", UUID.randomUUID().toString(), ADD_ITEM), 201));
            assertEquals(4, itemCount(), "carol's item, dave's, the long one and one of ten duplicates");
        } finally {
            deployer.undeploy("inventory-adopted");
        }

        // The application's drop-and-create runs again and empties its own table; the records stay.
        deployer.deploy("inventory-adopted");
        try {
            assertEquals(0, itemCount());
            HttpResponse<String> afterRedeploy = addItem("carol", key, ADD_ITEM);
            assertEquals(201, afterRedeploy.statusCode(), afterRedeploy.body());
            assertEquals(
                    "true",
                    afterRedeploy.headers().firstValue("Idempotent-Replayed").orElse(""));
            assertEquals(0, itemCount(), "a replay never runs the application");
            assertFilterTableUntouched();
        } finally {
            deployer.undeploy("inventory-adopted");
        }
    }

    @Test
    void adoptedApplicationWithContainerLoginScopesKeysByPrincipal() {
        deployer.deploy("ledger-adopted");
        try {
            String key = UUID.randomUUID().toString();
            HttpResponse<String> alice = ledger.post("alice", "api/entries", key, "{\"amount\": 5}");
            HttpResponse<String> aliceRetry = ledger.post("alice", "api/entries", key, "{\"amount\": 5}");
            HttpResponse<String> bob = ledger.post("bob", "api/entries", key, "{\"amount\": 5}");
            HttpResponse<String> aliceChanged = ledger.post("alice", "api/entries", key, "{\"amount\": 6}");

            assertEquals(200, alice.statusCode(), alice.body());
            assertEquals(alice.body(), aliceRetry.body());
            assertEquals(
                    "true",
                    aliceRetry.headers().firstValue("Idempotent-Replayed").orElse(""));
            assertEquals(200, bob.statusCode(), bob.body());
            assertTrue(bob.body().contains("\"owner\":\"bob\""), bob.body());
            assertEquals(422, aliceChanged.statusCode(), aliceChanged.body());
            assertEquals(1, Database.recordCount("alice", "ledger-entry:v1", key));
            assertEquals(1, Database.recordCount("bob", "ledger-entry:v1", key));
            assertFilterTableUntouched();
        } finally {
            deployer.undeploy("ledger-adopted");
        }
    }

    /** What a client sees of the inventory application, from a fresh deployment to its undeployment. */
    private List<String> inventoryConversation(String deployment, String contextRoot) {
        deployer.deploy(deployment);
        try {
            URI items = TestServer.context(contextRoot).resolve("api/items");
            List<String> seen = new ArrayList<>();
            for (HttpResponse<String> response : List.of(
                    Api.send(post(items, ADD_ITEM).build()),
                    Api.send(
                            post(items, "{\"name\": \"nut\", \"quantity\": 10}").build()),
                    Api.send(HttpRequest.newBuilder(items).GET().build()))) {
                seen.add(response.statusCode() + " "
                        + response.headers().firstValue("Content-Type").orElse("") + " " + response.body());
            }
            return seen;
        } finally {
            deployer.undeploy(deployment);
        }
    }

    private static HttpRequest.Builder post(URI uri, String json) {
        return HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
    }

    /** What alice sees of the ledger application: a keyless entry (its id is always the first). */
    private List<String> ledgerConversation(String deployment, String contextRoot) throws SQLException {
        deployer.deploy(deployment);
        try {
            // Schema generation "create" keeps the table across deployments; both runs start from an empty one.
            Database.execute("TRUNCATE ledger_entry RESTART IDENTITY");
            Api api = new Api(url(contextRoot));
            List<String> seen = new ArrayList<>();
            for (HttpResponse<String> response : List.of(
                    api.post("alice", "api/entries", null, "{\"amount\": 5}"), api.get("alice", "api/entries/count"))) {
                seen.add(response.statusCode() + " "
                        + response.headers().firstValue("Content-Type").orElse("") + " " + response.body());
            }
            return seen;
        } finally {
            deployer.undeploy(deployment);
        }
    }

    private HttpResponse<String> addItem(String gatewayUser, String key, String json) {
        return Api.send(addItemRequest(gatewayUser, key, json));
    }

    private HttpRequest addItemRequest(String gatewayUser, String key, String json) {
        HttpRequest.Builder request = post(inventoryUri("api/items"), json);
        if (gatewayUser != null) {
            request.header("X-Gateway-User", gatewayUser);
        }
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.build();
    }

    private long itemCount() {
        HttpResponse<String> items =
                Api.send(HttpRequest.newBuilder(inventoryUri("api/items")).GET().build());
        return Api.json(items).size();
    }

    /** The filter's table as its DDL made it: byte-wise keys, unbounded text, the key check. */
    private static void assertFilterTableUntouched() {
        assertEquals(
                3,
                Database.count("SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()"
                        + " AND table_name = 'request_result'"
                        + " AND column_name IN ('scope', 'operation', 'request_key') AND collation_name = 'C'"));
        assertEquals(
                0,
                Database.count("SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema()"
                        + " AND table_name = 'request_result' AND data_type = 'character varying'"));
        assertEquals(
                1,
                Database.count("SELECT count(*) FROM pg_constraint WHERE conname = 'request_result_key_not_empty'"
                        + " AND connamespace = current_schema()::regnamespace"));
    }

    private URI inventoryUri(String path) {
        return TestServer.context("inventory").resolve(path);
    }

    private static java.net.URL url(String contextRoot) {
        try {
            return TestServer.context(contextRoot).toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    static WebArchive inventory(String archiveName) throws Exception {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(Item.class.getPackage())
                .setWebXML(new File("src/test/resources/foreign/inventory-web.xml"))
                .addAsWebInfResource(new File("src/test/resources/foreign/inventory-ejb-jar.xml"), "ejb-jar.xml")
                .addAsResource(new StringAsset(persistenceXml("inventory")), "META-INF/persistence.xml");
    }

    private static WebArchive ledger(String archiveName) throws Exception {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(Entry.class.getPackage())
                .setWebXML(new File("src/test/resources/foreign/ledger-web.xml"))
                .addAsResource(new StringAsset(persistenceXml("ledger")), "META-INF/persistence.xml");
    }

    /** The whole adoption: the jar, and one settings file. */
    private static WebArchive adopt(WebArchive application, String settings) {
        return application
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(new File("src/test/resources/foreign/" + settings), "idempotency.properties");
    }

    /** The application's persistence.xml, pointed at this server's name for the test datasource. */
    private static String persistenceXml(String application) throws Exception {
        return Files.readString(Path.of("src/test/resources/foreign/" + application + "-persistence.xml"))
                .replace("${datasource}", TestServer.dataSource());
    }
}
