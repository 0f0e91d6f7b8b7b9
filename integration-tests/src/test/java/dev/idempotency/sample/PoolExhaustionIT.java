package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.faults.JmxReaderServlet;
import dev.idempotency.sample.pool.SlowEffectServlet;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * More duplicates of one slow request than the pool has connections, and traffic on other keys meanwhile.
 * The application's datasource, SmallPoolDS, has four connections and gives up after two seconds when none
 * is free. Duplicates on the same node wait in memory, not on a connection, so requests on other keys still
 * get one, and every connection is back in the pool afterwards.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class PoolExhaustionIT {
    private static final int POOL_SIZE = 4;
    private static final int DUPLICATES = 10;
    private static final int OTHER_KEYS = POOL_SIZE - 1;
    private static final String POOL_STATISTICS =
            "jboss.as:subsystem=datasources,data-source=SmallPoolDS,statistics=pool";

    @Deployment(testable = false)
    static WebArchive smallPool() {
        return ShrinkWrap.create(WebArchive.class, "small-pool.war")
                .addClasses(SlowEffectServlet.class, JmxReaderServlet.class)
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(
                        new File("src/test/resources/small-pool-idempotency.properties"), "idempotency.properties");
    }

    @BeforeAll
    static void tables() throws Exception {
        Database.installFilterTables();
        Database.execute("create table if not exists pool_effect (label text not null)");
    }

    @Test
    void duplicatesOfASlowRequestLeaveConnectionsForOtherKeysAndReturnEveryConnection() throws Exception {
        String key = UUID.randomUUID().toString();
        List<CompletableFuture<HttpResponse<String>>> duplicates = new ArrayList<>();
        for (int i = 0; i < DUPLICATES; i++) {
            duplicates.add(Api.sendLater(effect(key, key, 3000)));
        }
        awaitWinnerInsideTheApplication(key);
        Thread.sleep(300); // the other duplicates arrive and wait

        List<CompletableFuture<HttpResponse<String>>> others = new ArrayList<>();
        for (int i = 0; i < OTHER_KEYS; i++) {
            String otherKey = UUID.randomUUID().toString();
            others.add(Api.sendLater(effect(otherKey, otherKey, 0)));
        }

        for (CompletableFuture<HttpResponse<String>> other : others) {
            HttpResponse<String> response = other.get();
            assertEquals(200, response.statusCode(), "a request on another key: " + response.body());
        }
        int executed = 0;
        for (CompletableFuture<HttpResponse<String>> duplicate : duplicates) {
            HttpResponse<String> response = duplicate.get();
            assertEquals(200, response.statusCode(), response.body());
            assertEquals("recorded " + key, response.body());
            executed += response.headers().firstValue("Idempotent-Replayed").isEmpty() ? 1 : 0;
        }
        assertEquals(1, executed, "one duplicate executed, the others replayed");
        assertEquals(1, Database.count("select count(*) from pool_effect where label = '" + key + "'"));
        assertEquals(0, awaitConnectionsInUse(0), "connections still in use after every request ended");
        assertEquals(0, Database.sessionsIdleInTransaction());
    }

    private static void awaitWinnerInsideTheApplication(String key) throws InterruptedException {
        for (int attempt = 0; attempt < 1_200; attempt++) { // up to a minute
            if (Database.count("select count(*) from pg_stat_activity where state like 'idle in transaction%'"
                            + " and query like 'insert into pool_effect%'")
                    > 0) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no request for " + key + " reached the application");
    }

    private static long awaitConnectionsInUse(long expected) throws InterruptedException {
        long inUse = -1;
        for (int attempt = 0; attempt < 600 && inUse != expected; attempt++) {
            URI uri = TestServer.context("small-pool")
                    .resolve("test-jmx?name=" + URLEncoder.encode(POOL_STATISTICS, StandardCharsets.UTF_8)
                            + "&attribute=InUseCount");
            HttpResponse<String> answer =
                    Api.send(HttpRequest.newBuilder(uri).GET().build());
            assertEquals(200, answer.statusCode(), answer.body());
            inUse = Long.parseLong(answer.body().trim().substring("InUseCount=".length()));
            Thread.sleep(100);
        }
        return inUse;
    }

    private static HttpRequest effect(String key, String label, long sleepMillis) {
        return HttpRequest.newBuilder(TestServer.context("small-pool").resolve("effects"))
                .header("Content-Type", "text/plain")
                .header("X-Caller", "carol")
                .header("Idempotency-Key", key)
                .header("X-Test-Sleep-Millis", Long.toString(sleepMillis))
                .POST(HttpRequest.BodyPublishers.ofString(label))
                .build();
    }
}
