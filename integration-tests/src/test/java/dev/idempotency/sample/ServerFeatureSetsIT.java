package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.idempotency.IdempotencyRecords;
import dev.idempotency.foreign.events.Event;
import dev.idempotency.foreign.guestbook.SignServlet;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.LibertyServer;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Servers as their owners configure them, started beside the shared Liberty server with a {@code server.xml} of
 * their own ({@code src/test/liberty-features}), neither with {@code concurrent-3.0}:
 *
 * <ul>
 *   <li>{@code guide}: the features of Open Liberty's own {@code guide-jpa-intro} (REST, JSON-B, JSON-P, CDI,
 *       persistence) plus {@code servlet-6.0}, with an application in the guide's shape ({@code foreign.events});
 *   <li>{@code servlet-jdbc} with {@code jndi-1.0}: {@code servlet-6.0}, {@code jdbc-4.3} and {@code jndi-1.0}
 *       alone, with one JDBC servlet ({@code foreign.guestbook}).
 * </ul>
 *
 * Each application, adopted with the jar and a settings file, starts, gets one execution and a replay for a keyed
 * POST sent twice, and its server's log has exactly one WARNING from the filter, naming the feature to add, and
 * no SEVERE line. Without {@code jndi-1.0} as well, which the filter truly needs, the same application is not
 * started, and one SEVERE line names the feature.
 */
@Tag("liberty")
@ExtendWith(PostgresExtension.class)
class ServerFeatureSetsIT {
    /** A messages.log line of an application logger: {@code [date] thread logger LEVEL message}. */
    private static final Path SERVLET_JDBC = Path.of("src/test/liberty-features/servlet-jdbc/server.xml");

    private static final Pattern FILTER_LINE =
            Pattern.compile("^\\[[^]]+] \\S+ (dev\\.idempotency\\.\\S+)\\s+([A-Z]) (.*)$");

    private static LibertyServer guide;
    private static LibertyServer servletJdbc;
    private static LibertyServer withoutJndi;

    @BeforeAll
    static void startBothServers() throws Exception {
        assumeTrue(TestServer.isLiberty(), "second Open Liberty servers, in the build's Liberty run");
        Database.installFilterTables();
        Database.execute("DROP TABLE IF EXISTS guide_event");
        Database.execute("DROP TABLE IF EXISTS guestbook_entry");
        Database.execute("CREATE TABLE guestbook_entry (id BIGSERIAL PRIMARY KEY, name TEXT)");
        guide = new LibertyServer(
                "guide-features", Path.of("src/test/liberty-features/guide/server.xml"), List.of(), events());
        servletJdbc = new LibertyServer("servlet-jdbc-jndi-features", SERVLET_JDBC, List.of("jndi-1.0"), guestbook());
        withoutJndi = new LibertyServer("servlet-jdbc-features", SERVLET_JDBC, List.of(), guestbook());
    }

    @AfterAll
    static void stop() throws Exception {
        for (LibertyServer server : new LibertyServer[] {guide, servletJdbc, withoutJndi}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void onTheGuidesFeaturesAKeyedPostSentTwiceRunsOnceAndIsReplayed() {
        String key = UUID.randomUUID().toString();
        URI events = guide.context("events").resolve("api/events");
        String event = "{\"name\": \"launch\", \"location\": \"hall\", \"time\": \"noon\"}";

        HttpResponse<String> first = post(events, "application/json", event, key);
        HttpResponse<String> retry = post(events, "application/json", event, key);

        assertReplayed(first, retry);
        assertEquals(
                1,
                Database.count("SELECT count(*) FROM guide_event"),
                "one execution for the two requests: " + first.body() + "; the application counts "
                        + Api.send(HttpRequest.newBuilder(
                                                guide.context("events").resolve("api/events/count"))
                                        .build())
                                .body()
                        + "; sessions idle in a transaction: " + Database.sessionsIdleInTransaction());
        assertEquals(1, Database.recordCount(IdempotencyRecords.headerScope("carol"), "guide-event:v1", key));
    }

    @Test
    void onTheGuidesFeaturesTheLogHasOneWarningNamingConcurrentAndNoSevereLine() throws Exception {
        assertOneWarningNamingConcurrent(guide);
    }

    @Test
    void onServletAndJdbcAloneAKeyedPostSentTwiceRunsOnceAndIsReplayed() {
        String key = UUID.randomUUID().toString();
        URI sign = servletJdbc.context("guestbook").resolve("sign");

        HttpResponse<String> first = post(sign, "application/x-www-form-urlencoded", "name=ann", key);
        HttpResponse<String> retry = post(sign, "application/x-www-form-urlencoded", "name=ann", key);

        assertReplayed(first, retry);
        assertEquals(1, Database.count("SELECT count(*) FROM guestbook_entry"), "one execution for the two requests");
        assertEquals(1, Database.recordCount(IdempotencyRecords.headerScope("carol"), "guestbook-sign:v1", key));
    }

    @Test
    void onServletAndJdbcAloneTheLogHasOneWarningNamingConcurrentAndNoSevereLine() throws Exception {
        assertOneWarningNamingConcurrent(servletJdbc);
    }

    @Test
    void withoutJndiTheDeploymentFailsWithOneSevereLineNamingJndi() throws Exception {
        List<String> severe = filterLines(withoutJndi, "E");

        assertEquals(1, severe.size(), String.join("\n", severe));
        assertTrue(severe.get(0).contains("cannot start"), severe.get(0));
        assertTrue(severe.get(0).contains("no UserTransaction at java:comp/UserTransaction"), severe.get(0));
        assertTrue(severe.get(0).contains("add the feature jndi-1.0"), severe.get(0));
        assertTrue(
                withoutJndi.messages().stream().anyMatch(line -> line.contains("CWWKZ0012I")),
                "the application is not started");
        assertEquals(List.of(), filterLines(withoutJndi, "W"));
    }

    private static void assertReplayed(HttpResponse<String> first, HttpResponse<String> retry) {
        assertEquals(201, first.statusCode(), first.body());
        assertEquals(201, retry.statusCode(), retry.body());
        assertEquals(first.body(), retry.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""));
    }

    private static void assertOneWarningNamingConcurrent(LibertyServer server) throws Exception {
        List<String> warnings = filterLines(server, "W");

        assertEquals(1, warnings.size(), String.join("\n", warnings));
        assertTrue(warnings.get(0).contains("no managed scheduler"), warnings.get(0));
        assertTrue(warnings.get(0).contains("add the feature concurrent-3.0"), warnings.get(0));
        assertTrue(warnings.get(0).contains("purged on requests"), warnings.get(0));
        assertEquals(List.of(), filterLines(server, "E"));
    }

    /** The filter's log lines at one level (W for WARNING, E for SEVERE) in the server's messages.log. */
    private static List<String> filterLines(LibertyServer server, String level) throws Exception {
        return server.messages().stream()
                .map(FILTER_LINE::matcher)
                .filter(Matcher::matches)
                .filter(line -> line.group(2).equals(level))
                .map(line -> line.group(1) + " " + line.group(3))
                .toList();
    }

    private static HttpResponse<String> post(URI uri, String contentType, String body, String key) {
        return Api.send(HttpRequest.newBuilder(uri)
                .header("Content-Type", contentType)
                .header("X-Gateway-User", "carol")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    /** The guide-shaped application, adopted: the jar and one settings file. */
    private static WebArchive events() throws Exception {
        return adopt(
                ShrinkWrap.create(WebArchive.class, "events.war")
                        .addPackage(Event.class.getPackage())
                        .addAsResource(
                                new StringAsset(
                                        Files.readString(Path.of("src/test/resources/foreign/events-persistence.xml"))
                                                .replace("${datasource}", TestServer.dataSource())),
                                "META-INF/persistence.xml"),
                "events-idempotency.properties");
    }

    /** The one-servlet application, adopted. */
    private static WebArchive guestbook() {
        return adopt(
                ShrinkWrap.create(WebArchive.class, "guestbook.war").addPackage(SignServlet.class.getPackage()),
                "guestbook-idempotency.properties");
    }

    private static WebArchive adopt(WebArchive application, String settings) {
        return application
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(new File("src/test/resources/foreign/" + settings), "idempotency.properties");
    }
}
