package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The database turns read-only, as a replica left in charge after a failover does: covered requests are
 * refused with 503 {@code store-unavailable} before anything runs, nothing is stored, and everything works
 * again once the database accepts writes. PostgreSQL's {@code default_transaction_read_only}, set for the
 * whole server and reloaded, reaches the pool's open connections too.
 */
@RunAsClient
class ReadOnlyDatabaseIT extends SampleContainerTest {

    @AfterEach
    void writableAgain() throws Exception {
        setReadOnly(false);
    }

    @Test
    void coveredRequestsAreRefusedWhileTheDatabaseIsReadOnlyAndRunOnceItIsWritable() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String debits = "api/accounts/" + account + "/debits";
        String key = UUID.randomUUID().toString();

        setReadOnly(true);
        HttpResponse<String> refused = api.post("alice", debits, key, "{\"amount\": 100}");
        HttpResponse<String> keyless = api.post("alice", debits, null, "{\"amount\": 100}");

        assertEquals(503, refused.statusCode(), refused.body());
        assertEquals(
                "urn:dev.idempotency:problem:store-unavailable",
                Api.json(refused).get("type").asText());
        assertTrue(refused.headers().firstValue("Retry-After").isPresent());
        // Keyless requests are not covered: the application meets the read-only database itself.
        assertTrue(keyless.statusCode() >= 500, keyless.statusCode() + " " + keyless.body());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCountForKey(key));

        setReadOnly(false);
        HttpResponse<String> retry = api.post("alice", debits, key, "{\"amount\": 100}");

        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals("{\"balance\":900}", retry.body());
        assertTrue(retry.headers().firstValue("Idempotent-Replayed").isEmpty(), "the retry ran, it did not replay");
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCountForKey(key));
        assertEquals(0, Database.sessionsIdleInTransaction());
    }

    /**
     * Sets the server-wide default and reloads the configuration, then waits until a new session sees it.
     * Each backend applies a reload before its next command, so the pool's idle connections follow.
     */
    private static void setReadOnly(boolean readOnly) throws Exception {
        try (Connection c = PostgresExtension.dataSource().getConnection();
                Statement s = c.createStatement()) {
            // This session must be able to write the setting back even while the server is read-only.
            s.execute("SET default_transaction_read_only = off");
            s.execute(
                    readOnly
                            ? "ALTER SYSTEM SET default_transaction_read_only = on"
                            : "ALTER SYSTEM RESET default_transaction_read_only");
            s.execute("SELECT pg_reload_conf()");
        }
        String expected = readOnly ? "on" : "off";
        for (int attempt = 0; attempt < 1_200 && !expected.equals(currentDefault()); attempt++) {
            Thread.sleep(50);
        }
        assertEquals(expected, currentDefault(), "the reloaded setting did not reach new sessions");
    }

    private static String currentDefault() throws SQLException {
        try (Connection c = PostgresExtension.dataSource().getConnection();
                Statement s = c.createStatement();
                var r = s.executeQuery("SHOW default_transaction_read_only")) {
            r.next();
            return r.getString(1);
        }
    }
}
