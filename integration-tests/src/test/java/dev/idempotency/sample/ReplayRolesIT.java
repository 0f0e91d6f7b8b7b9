package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.sample.support.TestServer;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code replay-roles}: a stored response is replayed only to a caller who holds one of the roles at the
 * time of the retry. Account openings replay to role {@code user}, which alice holds; debits only to
 * {@code idempotency-admin}, which she does not, as if it had been revoked after her debit ran.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ReplayRolesIT {
    @Deployment(testable = false)
    static WebArchive replayRoles() throws IOException {
        String settings = Files.readString(Path.of("src/test/resources/test-idempotency.properties"))
                .replace("= open-account:v1 ;", "= open-account:v1 replay-roles=user ;")
                .replace("= debit:v1 ;", "= debit:v1 replay-roles=idempotency-admin ;");
        return SampleDeployment.create("replay-roles.war")
                .addAsWebInfResource(new StringAsset(settings), "idempotency.properties");
    }

    private final Api api = api();

    @Test
    void storedResponseIsReplayedOnlyToACallerInTheReplayRoles() {
        String openingKey = UUID.randomUUID().toString();
        HttpResponse<String> opened = api.post("alice", "api/accounts", openingKey, "{\"balance\": 1000}");
        HttpResponse<String> openingReplayed = api.post("alice", "api/accounts", openingKey, "{\"balance\": 1000}");
        long account = Api.json(opened).get("id").asLong();
        String debits = "api/accounts/" + account + "/debits";
        String debitKey = UUID.randomUUID().toString();

        HttpResponse<String> debited = api.post("alice", debits, debitKey, "{\"amount\": 100}");
        HttpResponse<String> refused = api.post("alice", debits, debitKey, "{\"amount\": 100}");
        HttpResponse<String> refusedChanged = api.post("alice", debits, debitKey, "{\"amount\": 999}");

        assertEquals(201, opened.statusCode(), opened.body());
        assertEquals(
                "true",
                openingReplayed.headers().firstValue("Idempotent-Replayed").orElse(""));
        assertEquals(200, debited.statusCode(), debited.body());
        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals(
                "urn:dev.idempotency:problem:replay-forbidden",
                Api.json(refused).get("type").asText());
        assertFalse(refused.body().contains("balance"), refused.body());
        assertEquals(403, refusedChanged.statusCode(), "not a 422: the record's existence is not revealed");
        assertEquals(900, Database.balance(account), "nothing ran again");
    }

    private static Api api() {
        try {
            return new Api(TestServer.context("replay-roles").toURL());
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }
}
