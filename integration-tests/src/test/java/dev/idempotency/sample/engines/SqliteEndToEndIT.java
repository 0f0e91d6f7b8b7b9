package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.PostgresExtension;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample on SQLite 3 through WildFly's SqliteDS. Hibernate has no SQLite dialect of its own, so the WAR
 * carries Hibernate's community dialects, as an application on SQLite does.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
class SqliteEndToEndIT extends EngineEndToEndIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        return sampleOn(Engine.SQLITE, "sample-sqlite.war");
    }

    @Override
    Engine engine() {
        return Engine.SQLITE;
    }

    /**
     * One writer per file: requests with different keys on different accounts take turns at the file's write
     * lock, and each runs once; none is refused while it waits within the lock timeout.
     */
    @Test
    void independentKeysAtOnceEachRunOnce() throws Exception {
        Api api = new Api(base);
        int clients = 10;
        List<Long> accounts = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            accounts.add(api.openAccount("alice", 1000));
            keys.add(UUID.randomUUID().toString());
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> debits = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            int client = i;
            debits.add(pool.submit(() -> {
                start.await();
                return api.post(
                        "alice",
                        "api/accounts/" + accounts.get(client) + "/debits",
                        keys.get(client),
                        "{\"amount\": 100}");
            }));
        }
        start.countDown();
        try {
            for (Future<HttpResponse<String>> debit : debits) {
                HttpResponse<String> response = debit.get(60, TimeUnit.SECONDS);
                assertEquals(200, response.statusCode(), response.body());
                assertEquals("{\"balance\":900}", response.body());
            }
        } finally {
            pool.shutdownNow();
        }
        for (int i = 0; i < clients; i++) {
            assertEquals(
                    "{\"id\":" + accounts.get(i) + ",\"balance\":900}",
                    api.get("alice", "api/accounts/" + accounts.get(i)).body());
            assertEquals(1, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", keys.get(i)));
        }
    }
}
