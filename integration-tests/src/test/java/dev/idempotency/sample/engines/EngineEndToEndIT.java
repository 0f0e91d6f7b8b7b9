package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.SampleDeployment;
import java.net.URL;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;

/**
 * The sample itself, unchanged, on another engine: its persistence unit points at that engine's datasource,
 * and the filter finds it there, detects the engine and shares the sample's transaction and connection. The
 * chapter's scenario and twenty concurrent duplicates prove it end to end; the full suite stays on PostgreSQL.
 */
@RunAsClient
abstract class EngineEndToEndIT {
    @ArquillianResource
    URL base;

    abstract Engine engine();

    /** The sample on {@code engine}, without its JMS consumers (they stay with the PostgreSQL deployment). */
    static WebArchive sampleOn(Engine engine, String archiveName) throws Exception {
        engine.installFilterTables();
        engine.installSampleTable();
        return engine.retargetSample(SampleDeployment.create(archiveName));
    }

    @Test
    void chapterScenarioDebitsOnceReplaysAndRejectsADifferentAmount() {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String debits = "api/accounts/" + account + "/debits";
        String key = UUID.randomUUID().toString();

        var first = api.post("alice", debits, key, "{\"amount\": 100}");
        var again = api.post("alice", debits, key, "{\"amount\": 100}");
        var different = api.post("alice", debits, key, "{\"amount\": 101}");

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("{\"balance\":900}", first.body());
        assertEquals("{\"balance\":900}", again.body());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(422, different.statusCode(), different.body());
        assertEquals(
                "{\"id\":" + account + ",\"balance\":900}",
                api.get("alice", "api/accounts/" + account).body());
        assertEquals(1, engine().count("SELECT count(*) FROM request_result WHERE request_key = ?", key));
    }

    @Test
    void twentyConcurrentDuplicatesExecuteOnce() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);

        int executed =
                Duplicates.debitAtOnce(20, i -> api, account, UUID.randomUUID().toString(), "{\"balance\":900}");

        assertEquals(1, executed);
        assertTrue(api.get("alice", "api/accounts/" + account).body().endsWith("\"balance\":900}"));
    }
}
