package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A transaction that times out while the application runs sends no success, and the retry runs once. */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class TransactionTimeoutIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws IOException {
        return SampleDeployment.withExtraSettings("sample.war", "transaction-timeout = PT2S");
    }

    @ArquillianResource
    URL base;

    @Test
    void timedOutTransactionSendsNoSuccessAndTheRetryExecutesExactlyOnce() {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();

        HttpResponse<String> timedOut = Api.send(api.slowDebit(account, key, 3500));

        assertEquals(500, timedOut.statusCode(), timedOut.body());
        assertEquals(
                "urn:dev.idempotency:problem:application-failed",
                Api.json(timedOut).get("type").asText());
        assertFalse(timedOut.body().contains("balance"), timedOut.body());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCount("alice", "slow:v1", key));

        HttpResponse<String> retry = Api.send(api.slowDebit(account, key, 0));
        HttpResponse<String> again = Api.send(api.slowDebit(account, key, 0));

        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals("{\"balance\":900}", retry.body());
        assertTrue(retry.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(account));
    }
}
