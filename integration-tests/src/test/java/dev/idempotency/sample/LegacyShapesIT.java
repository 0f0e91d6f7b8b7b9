package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotency.foreign.ownh2.SignupServlet;
import dev.idempotency.foreign.root.Note;
import dev.idempotency.foreign.selfcommit.TransferServlet;
import dev.idempotency.foreign.shop.ShopServlet;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Adoption in applications of shapes found in real legacy code ({@code dev.idempotency.foreign}), each adopted
 * with only the filter's jar and {@code WEB-INF/idempotency.properties}: a JSON resource at the context root, a
 * front controller whose actions share one path and are told apart by a form field, servlets that manage their
 * own transactions, and an application that defines its own in-memory H2 database. Where an application is
 * also deployed without the jar, its responses are compared header by header with the adopted one's (the two
 * context roots, which differ, left out).
 */
@Tag("liberty")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class LegacyShapesIT {
    private static final String PROBLEM = "urn:dev.idempotency:problem:";
    private static final String FORM = "application/x-www-form-urlencoded";

    /**
     * Left out when responses are compared: the filter's own headers, the date, and the message framing (a
     * captured body may be sent with a length where the container chunked it; the bodies are compared).
     */
    private static final Set<String> NOT_COMPARED = Set.of(
            "date",
            "idempotent-replayed",
            "idempotency-key-expires",
            "content-length",
            "transfer-encoding",
            "connection",
            "keep-alive");

    @Deployment(name = "root-plain", managed = false, testable = false)
    static WebArchive rootAlone() throws IOException {
        return root("root-alone.war");
    }

    @Deployment(name = "root-adopted", managed = false, testable = false)
    static WebArchive rootAdopted() throws IOException {
        return adopt(root("root.war"), "root-idempotency.properties");
    }

    @Deployment(name = "shop-plain", managed = false, testable = false)
    static WebArchive shopAlone() throws IOException {
        return shop("shop-alone.war");
    }

    @Deployment(name = "shop-adopted", managed = false, testable = false)
    static WebArchive shopAdopted() throws IOException {
        return adopt(shop("shop.war"), "shop-idempotency.properties");
    }

    @Deployment(name = "selfcommit-adopted", managed = false, testable = false)
    static WebArchive selfCommitAdopted() throws IOException {
        return adopt(
                ShrinkWrap.create(WebArchive.class, "selfcommit.war")
                        .addPackage(TransferServlet.class.getPackage())
                        .setWebXML(new StringAsset(foreignFile("selfcommit-web.xml"))),
                "selfcommit-idempotency.properties");
    }

    @Deployment(name = "ownh2-created", managed = false, testable = false)
    static WebArchive ownH2Created() throws Exception {
        return adopt(ownH2("ownh2.war"), "ownh2-idempotency.properties");
    }

    @Deployment(name = "ownh2-validated", managed = false, testable = false)
    static WebArchive ownH2Validated() throws Exception {
        return adopt(ownH2("ownh2-validate.war"), "ownh2-validate-idempotency.properties");
    }

    @ArquillianResource
    Deployer deployer;

    private final Api rootAlone = new Api(url("root-alone"));
    private final Api root = new Api(url("root"));
    private final Api shop = new Api(url("shop"));
    private final Api selfCommit = new Api(url("selfcommit"));
    private final Api ownH2 = new Api(url("ownh2"));

    @BeforeAll
    static void tables() throws Exception {
        // The adopting team's migration, and the tables of the applications that have no schema generation.
        Database.installFilterTables();
        Database.execute("CREATE TABLE IF NOT EXISTS shop_order (id bigint GENERATED BY DEFAULT AS IDENTITY"
                + " PRIMARY KEY, customer text NOT NULL, quantity integer NOT NULL)");
        Database.execute("CREATE TABLE IF NOT EXISTS transfer_log (id bigint GENERATED BY DEFAULT AS IDENTITY"
                + " PRIMARY KEY, reference text NOT NULL, amount integer NOT NULL)");
    }

    @Test
    void contextRootResourceAnswersAsWithoutTheJarAndItsRetryIsReplayed() throws Exception {
        Seen alone;
        deployer.deploy("root-plain");
        try {
            Database.execute("TRUNCATE root_note RESTART IDENTITY");
            alone = Seen.of(
                    Api.send(note(rootAlone, "carol", UUID.randomUUID().toString(), "{\"content\": \"hello\"}")));
        } finally {
            deployer.undeploy("root-plain");
        }

        deployer.deploy("root-adopted");
        try {
            Database.execute("TRUNCATE root_note RESTART IDENTITY");
            String key = UUID.randomUUID().toString();
            HttpResponse<String> first = Api.send(note(root, "carol", key, "{\"content\": \"hello\"}"));
            HttpResponse<String> retry = Api.send(note(root, "carol", key, "{\"content\": \"hello\"}"));

            assertEquals(201, first.statusCode(), first.body());
            assertEquals(alone, Seen.of(first));
            assertReplayOf(first, retry);
            assertEquals(1, Database.recordCountForKey(key));
            assertEquals(1, Database.count("SELECT count(*) FROM root_note"));
        } finally {
            deployer.undeploy("root-adopted");
        }
    }

    @Test
    void contextRootOperationCoversKeylessRequestsRefusesAChangedBodyAndRunsTenDuplicatesOnce() throws Exception {
        deployer.deploy("root-adopted");
        try {
            HttpResponse<String> keyless = Api.send(note(root, "carol", null, "{\"content\": \"keyless\"}"));
            assertEquals(201, keyless.statusCode(), keyless.body());
            assertTrue(keyless.headers().firstValue("Deprecation").isPresent(), "POST / is a covered operation");

            String key = UUID.randomUUID().toString();
            HttpResponse<String> first = Api.send(note(root, "carol", key, "{\"content\": \"first\"}"));
            HttpResponse<String> changed = Api.send(note(root, "carol", key, "{\"content\": \"second\"}"));
            assertEquals(201, first.statusCode(), first.body());
            assertEquals(422, changed.statusCode(), changed.body());
            assertEquals(
                    PROBLEM + "idempotency-key-reused",
                    Api.json(changed).get("type").asText());

            String content = "duplicate-" + UUID.randomUUID();
            HttpRequest duplicate =
                    note(root, "erin", UUID.randomUUID().toString(), "{\"content\": \"" + content + "\"}");
            assertEquals(1, Duplicates.sendAtOnce(10, duplicate, 201));
            assertEquals(1, Database.count("SELECT count(*) FROM root_note WHERE content = '" + content + "'"));
        } finally {
            deployer.undeploy("root-adopted");
        }
    }

    @Test
    void frontControllerAnswersEveryActionAsWithoutTheJarAndReplaysTheRetriedBuy() throws Exception {
        List<HttpResponse<String>> alone = shopConversation("shop-plain", "shop-alone");
        long ordersAlone = Database.count("SELECT count(*) FROM shop_order");
        List<HttpResponse<String>> adopted = shopConversation("shop-adopted", "shop");
        long ordersAdopted = Database.count("SELECT count(*) FROM shop_order");

        // login, quote, buy, logout: the same status, headers and HTML, whether the action is covered or not.
        for (int step : new int[] {0, 1, 2, 4}) {
            assertEquals(Seen.of(alone.get(step)), Seen.of(adopted.get(step)), "step " + step);
            assertTrue(adopted.get(step).headers().firstValue("Deprecation").isEmpty(), "step " + step);
        }
        assertEquals(200, adopted.get(2).statusCode(), adopted.get(2).body());
        assertTrue(alone.get(4).body().contains("Goodbye, alice"), "the login was kept in the session");
        assertReplayOf(adopted.get(2), adopted.get(3));
        assertTrue(alone.get(3).body().contains("Order 2"), "without the jar, the retried buy orders again");
        assertEquals(2, ordersAlone);
        assertEquals(1, ordersAdopted);
    }

    @Test
    void frontControllerCoversOnlyTheBuyActionAndRequiresItsKey() throws Exception {
        deployer.deploy("shop-adopted");
        try {
            long orders = orders("alice");

            HttpResponse<String> quote = Api.send(shopPost(shop, "alice", null, "app", "action=quote&quantity=3"));
            HttpResponse<String> buy = Api.send(shopPost(shop, "alice", null, "app", "action=buy&quantity=3"));
            HttpResponse<String> buyByQuery = Api.send(shopPost(shop, "alice", null, "app?action=buy", "quantity=3"));

            assertEquals(200, quote.statusCode(), quote.body());
            assertTrue(quote.body().contains("3 widgets cost 36 EUR"), quote.body());
            assertTrue(quote.headers().firstValue("Deprecation").isEmpty());
            assertProblem(400, "idempotency-key-required", buy);
            assertProblem(400, "idempotency-key-required", buyByQuery);
            assertEquals(orders, orders("alice"), "a refused buy runs nothing");
        } finally {
            deployer.undeploy("shop-adopted");
        }
    }

    @Test
    void frontControllerNamesTheChangedFormFieldAndRunsTenDuplicateBuysOnce() throws Exception {
        deployer.deploy("shop-adopted");
        try {
            String key = UUID.randomUUID().toString();
            HttpResponse<String> first = Api.send(shopPost(shop, "bob", key, "app", "action=buy&quantity=1"));
            HttpResponse<String> changed = Api.send(shopPost(shop, "bob", key, "app", "action=buy&quantity=2"));

            assertEquals(200, first.statusCode(), first.body());
            JsonNode problem = assertProblem(422, "idempotency-key-reused", changed);
            assertEquals("[\"/body/form/quantity\"]", problem.get("mismatches").toString());
            assertTrue(problem.get("detail").asText().contains("/body/form/quantity"), changed.body());

            long orders = orders("bob");
            HttpRequest duplicate = shopPost(shop, "bob", UUID.randomUUID().toString(), "app", "action=buy&quantity=7");
            assertEquals(1, Duplicates.sendAtOnce(10, duplicate, 200));
            assertEquals(orders + 1, orders("bob"));
        } finally {
            deployer.undeploy("shop-adopted");
        }
    }

    @Test
    void servletCommittingItsOwnJdbcTransactionIsNamedKeepsNothingAndStillRunsWithoutAKey() throws Exception {
        assertNamedAsManagingItsTransactionsWithAKeyAndRunningWithout("transfer", "transfer:v1");
    }

    @Test
    void servletBeginningItsOwnUserTransactionIsNamedKeepsNothingAndStillRunsWithoutAKey() throws Exception {
        assertNamedAsManagingItsTransactionsWithAKeyAndRunningWithout("settle", "settle:v1");
    }

    /**
     * Validation first: should the server rather than the WAR load H2, its in-memory database would outlive
     * the deployment that created the tables in it.
     */
    @Test
    void ownInMemoryDatabaseFailsTheDeploymentUnderSchemaValidateAndIsProtectedUnderSchemaCreate() throws Exception {
        Path log = serverLog();
        long logSize = Files.size(log);
        if (TestServer.isLiberty()) {
            assertLibertyDoesNotStart(ownH2Validated(), log, logSize);
        } else {
            try {
                assertThrows(Exception.class, () -> deployer.deploy("ownh2-validated"));
            } finally {
                try {
                    deployer.undeploy("ownh2-validated");
                } catch (RuntimeException alreadyGone) {
                    // A failed deployment may already have been removed by the container.
                }
            }
        }
        String logged = logSince(log, logSize, "META-INF/idempotency/h2.sql");
        assertTrue(logged.contains("SEVERE") || logged.contains(" E "), "the refusal is logged as an error: " + logged);
        assertTrue(logged.contains("lacks the filter's table(s) [request_result"), logged);
        assertTrue(logged.contains("'java:app/jdbc/own' (H2)"), logged);

        deployer.deploy("ownh2-created");
        try {
            String key = UUID.randomUUID().toString();
            HttpResponse<String> first = Api.send(signup("carol", key, "name=carol"));
            HttpResponse<String> retry = Api.send(signup("carol", key, "name=carol"));

            assertEquals(201, first.statusCode(), first.body());
            assertReplayOf(first, retry);
            assertEquals("1", ownH2.get(null, "signups").body());

            assertEquals(
                    1,
                    Duplicates.sendAtOnce(10, signup("erin", UUID.randomUUID().toString(), "name=erin"), 201));
            assertEquals("2", ownH2.get(null, "signups").body());
        } finally {
            deployer.undeploy("ownh2-created");
        }
    }

    /**
     * Open Liberty's Arquillian connector notices an application that did not start only at its deployment
     * timeout (minutes), so the archive goes into the server's dropins directly, the server is told of it as the
     * connector tells it (the test server updates applications on an MBean's notice only), and the server's own
     * message says that it did not start.
     */
    private static void assertLibertyDoesNotStart(WebArchive archive, Path log, long logSize) throws Exception {
        String name = archive.getName().replace(".war", "");
        Path server = Path.of(System.getProperty("liberty.home"), "usr", "servers", "idempotency");
        Path dropin = server.resolve("dropins").resolve(archive.getName());
        archive.as(ZipExporter.class).exportTo(dropin.toFile(), true);
        try {
            notifyLiberty(server, List.of(dropin.toString()), List.of());
            String notStarted = "CWWKZ0012I: The application " + name + " was not started";
            assertTrue(logSince(log, logSize, notStarted).contains(notStarted), "Liberty started " + name);
        } finally {
            Files.delete(dropin);
            notifyLiberty(server, List.of(), List.of(dropin.toString()));
        }
    }

    /** Liberty's file notification MBean, over the server's local JMX connector. */
    private static void notifyLiberty(Path server, List<String> created, List<String> deleted) throws Exception {
        String address = Files.readString(server.resolve("logs/state/com.ibm.ws.jmx.local.address"))
                .trim();
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            connector
                    .getMBeanServerConnection()
                    .invoke(
                            new ObjectName("WebSphere:service=com.ibm.ws.kernel.filemonitor.FileNotificationMBean"),
                            "notifyFileChanges",
                            new Object[] {created, List.of(), deleted},
                            new String[] {
                                Collection.class.getName(), Collection.class.getName(), Collection.class.getName()
                            });
        }
    }

    private void assertNamedAsManagingItsTransactionsWithAKeyAndRunningWithout(String path, String operation)
            throws Exception {
        deployer.deploy("selfcommit-adopted");
        try {
            long logSize = Files.size(serverLog());
            String key = UUID.randomUUID().toString();
            String reference = "keyed-" + key;
            HttpResponse<String> keyed = Api.send(transfer(path, key, reference));
            HttpResponse<String> again =
                    Api.send(transfer(path, UUID.randomUUID().toString(), reference));

            JsonNode problem = assertProblem(500, "application-manages-transactions", keyed);
            String detail = problem.get("detail").asText();
            assertTrue(detail.contains(operation) && detail.contains("manages its own"), detail);
            assertProblem(500, "application-manages-transactions", again);
            assertEquals(0, Database.recordCountForKey(key));
            assertEquals(0, transfers(reference));
            String cause = operation + " manages its own transactions";
            String logged = logSince(serverLog(), logSize, cause);
            assertEquals(1, occurrences(logged, cause), "logged once per operation: " + logged);
            assertTrue(logged.contains("the container refused with"), logged);

            String keylessReference = "keyless-" + UUID.randomUUID();
            HttpResponse<String> keyless = Api.send(transfer(path, null, keylessReference));
            assertEquals(201, keyless.statusCode(), keyless.body());
            assertEquals(1, transfers(keylessReference));
        } finally {
            deployer.undeploy("selfcommit-adopted");
        }
    }

    /**
     * What alice's browser sees of the shop, from a fresh deployment and an empty order table: login, a
     * quote, a buy with a key, the same buy again with the same key, logout.
     */
    private List<HttpResponse<String>> shopConversation(String deployment, String contextRoot) throws Exception {
        deployer.deploy(deployment);
        try {
            Api app = new Api(url(contextRoot));
            Database.execute("TRUNCATE shop_order RESTART IDENTITY");
            HttpClient browser = HttpClient.newBuilder()
                    .version(HttpClient.Version.HTTP_1_1)
                    .cookieHandler(new CookieManager())
                    .connectTimeout(Duration.ofSeconds(10))
                    .build();
            String key = UUID.randomUUID().toString();
            List<HttpResponse<String>> seen = new ArrayList<>();
            for (HttpRequest request : List.of(
                    shopPost(app, "alice", null, "app", "action=login"),
                    shopPost(app, "alice", null, "app", "action=quote&quantity=3"),
                    shopPost(app, "alice", key, "app", "action=buy&quantity=3"),
                    shopPost(app, "alice", key, "app", "action=buy&quantity=3"),
                    shopPost(app, "alice", null, "app", "action=logout"))) {
                seen.add(browser.send(request, HttpResponse.BodyHandlers.ofString()));
            }
            return seen;
        } finally {
            deployer.undeploy(deployment);
        }
    }

    private static void assertReplayOf(HttpResponse<String> first, HttpResponse<String> retry) {
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), retry.body());
        assertEquals(first.body(), retry.body());
        assertEquals(Seen.of(first), Seen.of(retry));
    }

    private static JsonNode assertProblem(int status, String type, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), response.body());
        assertTrue(
                response.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"),
                response.headers().toString());
        JsonNode problem = Api.json(response);
        assertEquals(PROBLEM + type, problem.get("type").asText(), response.body());
        return problem;
    }

    /**
     * A response as a client sees it, less what varies by nature: the date, session ids, the context root (in a
     * cookie's path), and the headers in {@link #NOT_COMPARED}. Header names are compared case-insensitively.
     */
    private record Seen(int status, SortedMap<String, List<String>> headers, String body) {
        static Seen of(HttpResponse<String> response) {
            String contextPath = "/" + response.uri().getPath().split("/")[1];
            SortedMap<String, List<String>> headers = new TreeMap<>();
            response.headers().map().forEach((name, values) -> {
                String lowerCase = name.toLowerCase(Locale.ROOT);
                if (!NOT_COMPARED.contains(lowerCase)) {
                    headers.put(
                            lowerCase,
                            values.stream()
                                    .map(value -> value.replaceAll("JSESSIONID=[^;]*", "JSESSIONID=<session>")
                                            .replace(contextPath, "<context root>"))
                                    .toList());
                }
            });
            return new Seen(response.statusCode(), headers, response.body());
        }
    }

    private static HttpRequest note(Api app, String gatewayUser, String key, String json) {
        return withKey(app.request(null, ""), key)
                .header("X-Gateway-User", gatewayUser)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    private static HttpRequest shopPost(Api app, String user, String key, String path, String form) {
        return withKey(app.request(user, path), key)
                .header("Content-Type", FORM)
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
    }

    private HttpRequest transfer(String path, String key, String reference) {
        return withKey(selfCommit.request(null, path), key)
                .header("X-Gateway-User", "carol")
                .header("Content-Type", FORM)
                .POST(HttpRequest.BodyPublishers.ofString("reference=" + reference + "&amount=5"))
                .build();
    }

    private HttpRequest signup(String gatewayUser, String key, String form) {
        return withKey(ownH2.request(null, "signups"), key)
                .header("X-Gateway-User", gatewayUser)
                .header("Content-Type", FORM)
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
    }

    private static HttpRequest.Builder withKey(HttpRequest.Builder request, String key) {
        return key == null ? request : request.header("Idempotency-Key", key);
    }

    private static long orders(String customer) {
        return Database.count("SELECT count(*) FROM shop_order WHERE customer = '" + customer + "'");
    }

    private static long transfers(String reference) {
        return Database.count("SELECT count(*) FROM transfer_log WHERE reference = '" + reference + "'");
    }

    private static Path serverLog() {
        return TestServer.isLiberty()
                ? Path.of(System.getProperty("liberty.home"), "usr", "servers", "idempotency", "logs", "messages.log")
                : Path.of(System.getProperty("jboss.home"), "standalone", "log", "server.log");
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    /**
     * The log after its first {@code offset} bytes, as soon as it mentions {@code text} (waiting up to 10 s, as
     * servers write their logs asynchronously); what it holds then if it never does.
     */
    private static String logSince(Path log, long offset, String text) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        String since;
        do {
            try {
                byte[] content = Files.readAllBytes(log);
                int from = (int) Math.min(offset, content.length);
                since = new String(content, from, content.length - from, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (since.contains(text)) {
                return since;
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        return since;
    }

    private static URL url(String contextRoot) {
        try {
            return TestServer.context(contextRoot).toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static WebArchive root(String archiveName) throws IOException {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(Note.class.getPackage())
                .addAsResource(new StringAsset(foreignFile("root-persistence.xml")), "META-INF/persistence.xml");
    }

    private static WebArchive shop(String archiveName) throws IOException {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(ShopServlet.class.getPackage())
                .setWebXML(new StringAsset(foreignFile("shop-web.xml")))
                .addAsWebInfResource(new File("src/test/resources/foreign/shop-page.jsp"), "page.jsp");
    }

    /** The application with the H2 driver in {@code WEB-INF/lib}: the one on the test's class path. */
    private static WebArchive ownH2(String archiveName) throws Exception {
        File h2 = new File(org.h2.Driver.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(SignupServlet.class.getPackage())
                .addAsLibrary(h2, "h2.jar");
    }

    /** The whole adoption: the jar, and one settings file. */
    private static WebArchive adopt(WebArchive application, String settings) throws IOException {
        return application
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(new StringAsset(foreignFile(settings)), "idempotency.properties");
    }

    /** A file of {@code src/test/resources/foreign}, pointed at this server's name for the test datasource. */
    private static String foreignFile(String name) throws IOException {
        return Files.readString(Path.of("src/test/resources/foreign/" + name))
                .replace("${datasource}", TestServer.dataSource());
    }
}
