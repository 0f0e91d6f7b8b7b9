package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.sample.faults.UncoveredDebitResource;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.testkit.IdempotencyCheck;
import dev.idempotency.testkit.RequestTemplate;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The test kit, as the sample's users would use it, against the real filter on WildFly and PostgreSQL: the
 * sample's debit passes every check, and a debit the filter does not cover fails them. The effect probe
 * reads the balance the server committed.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class SampleWithTestKitIT {
    private static final String ADMIN = "admin/idempotency?operation=debit:v1";

    @Deployment(testable = false)
    static WebArchive deployment() {
        return SampleDeployment.create().addClass(UncoveredDebitResource.class);
    }

    @ArquillianResource
    URL base;

    Api api;
    long account;

    @BeforeEach
    void debitOptionalAndAFreshAccount() {
        api = new Api(base);
        switchDebitTo("OPTIONAL"); // the test deployment's mode, whatever an earlier test left in the table
        account = api.openAccount("alice", 1000);
    }

    @Test
    void lostResponseToADebitIsReplayedAndDebitsOnce() {
        debit("api/accounts/" + account + "/debits").lostResponseIsReplayed();

        assertEquals(900, Database.balance(account));
    }

    @Test
    void tenConcurrentDuplicateDebitsExecuteOnce() {
        debit("api/accounts/" + account + "/debits").concurrentDuplicatesExecuteOnce(10);

        assertEquals(900, Database.balance(account));
    }

    @Test
    void debitKeyReusedWithAnotherAmountIsRejected() {
        debit("api/accounts/" + account + "/debits").keyReuseWithChangedBodyIsRejected("{\"amount\": 101}");

        assertEquals(900, Database.balance(account));
    }

    @Test
    void keylessDebitPassesWithDeprecationUnderOptional() {
        debit("api/accounts/" + account + "/debits").keylessRequestPasses();

        assertEquals(900, Database.balance(account));
    }

    @Test
    void keylessDebitIsRefusedUnderRequired() {
        switchDebitTo("REQUIRED");
        try {
            debit("api/accounts/" + account + "/debits").keylessRequestIsRefused();
        } finally {
            switchDebitTo("OPTIONAL");
        }

        assertEquals(1000, Database.balance(account));
    }

    @Test
    void lostResponseCheckFailsAgainstADebitTheFilterDoesNotCover() {
        IdempotencyCheck uncovered = debit("api/test/uncovered/accounts/" + account + "/debits");

        assertThrows(AssertionError.class, uncovered::lostResponseIsReplayed);

        assertEquals(800, Database.balance(account), "the request whose response was lost and its retry both debited");
    }

    @Test
    void duplicatesCheckFailsAgainstADebitTheFilterDoesNotCover() {
        IdempotencyCheck uncovered = debit("api/test/uncovered/accounts/" + account + "/debits");

        assertThrows(AssertionError.class, () -> uncovered.concurrentDuplicatesExecuteOnce(5));

        assertEquals(500, Database.balance(account), "every duplicate debited");
    }

    /** A debit of 100 from this test's account as alice, whose effect is the account's committed balance. */
    private IdempotencyCheck debit(String path) {
        return IdempotencyCheck.of(RequestTemplate.post(URI.create(base + path))
                        .basicAuth("alice", "alice")
                        .header("Content-Type", "application/json")
                        .body("{\"amount\": 100}"))
                .withEffect(() -> Database.balance(account), -100);
    }

    /** Through the admin servlet, so this node's cache of the modes is fresh at once. */
    private void switchDebitTo(String mode) {
        HttpResponse<String> switched = api.put("operator", ADMIN, "{\"mode\": \"" + mode + "\"}");
        assertEquals(200, switched.statusCode(), switched.body());
    }
}
