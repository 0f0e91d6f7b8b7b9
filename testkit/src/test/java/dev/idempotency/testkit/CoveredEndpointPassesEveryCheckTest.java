package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Against an endpoint that implements idempotency correctly, every check passes, and debits as it claims. */
class CoveredEndpointPassesEveryCheckTest {
    private final FakeAccount account = new FakeAccount(10_000);
    private FakeServer server;

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void lostResponseIsReplayedAndTheAccountIsDebitedOnce() {
        debitCheck(CoveredDebitEndpoint.inMode(FakeRolloutMode.OPTIONAL, account))
                .lostResponseIsReplayed();

        assertEquals(9_900, account.balance());
    }

    @Test
    void tenConcurrentDuplicatesExecuteOnce() {
        debitCheck(CoveredDebitEndpoint.inMode(FakeRolloutMode.OPTIONAL, account))
                .concurrentDuplicatesExecuteOnce(10);

        assertEquals(9_900, account.balance());
    }

    @Test
    void keyReuseWithAChangedAmountIsRejected() {
        debitCheck(CoveredDebitEndpoint.inMode(FakeRolloutMode.OPTIONAL, account))
                .keyReuseWithChangedBodyIsRejected("{\"amount\": 101}");

        assertEquals(9_900, account.balance());
    }

    @Test
    void everyCheckRunsUnderItsOwnKeySoChecksCanShareAnEndpoint() {
        IdempotencyCheck debit = debitCheck(CoveredDebitEndpoint.inMode(FakeRolloutMode.OPTIONAL, account));

        debit.lostResponseIsReplayed();
        debit.concurrentDuplicatesExecuteOnce(3);
        debit.keyReuseWithChangedBodyIsRejected("{\"amount\": 101}");
        debit.lostResponseIsReplayed();

        assertEquals(9_600, account.balance());
    }

    @Test
    void keysComeFromTheSupplierInTheConfiguredHeader() {
        CoveredDebitEndpoint endpoint = new CoveredDebitEndpoint(
                account, "X-Request-Key", FakeRolloutMode.OPTIONAL, Duration.ZERO, Duration.ofSeconds(5));
        AtomicInteger orders = new AtomicInteger();

        debitCheck(endpoint)
                .withKeyHeader("X-Request-Key")
                .withKeys(() -> "order-" + orders.incrementAndGet())
                .lostResponseIsReplayed();

        assertEquals(List.of("order-1", "order-1", "order-1"), endpoint.keysSeen());
        assertEquals(9_900, account.balance());
    }

    @Test
    void duplicatesAnsweredRequestInProgressFailTheCheckUnlessAllowedAndThenReplayOnRetry() {
        // Each execution outlasts the wait bound, so duplicates arriving meanwhile get 409.
        IdempotencyCheck slowDebit = debitCheck(new CoveredDebitEndpoint(
                account,
                FilterProtocol.DEFAULT_KEY_HEADER,
                FakeRolloutMode.OPTIONAL,
                Duration.ofMillis(1_000),
                Duration.ofMillis(100)));

        AssertionFailedError refused =
                assertThrows(AssertionFailedError.class, () -> slowDebit.concurrentDuplicatesExecuteOnce(4));
        slowDebit.withRequestInProgressAllowed().concurrentDuplicatesExecuteOnce(4);

        assertTrue(refused.getMessage().contains("request-in-progress"), refused.getMessage());
        assertEquals(9_800, account.balance());
    }

    @Test
    void aProbeExpectingTheWrongChangePerExecutionFailsTheCheck() {
        server = FakeServer.serving(CoveredDebitEndpoint.inMode(FakeRolloutMode.OPTIONAL, account));
        IdempotencyCheck halfDebit =
                IdempotencyCheck.of(Debits.template(server)).withEffect(account::balance, -50);

        AssertionFailedError wrong = assertThrows(AssertionFailedError.class, halfDebit::lostResponseIsReplayed);

        assertTrue(wrong.getMessage().contains("moved by -100"), wrong.getMessage());
    }

    private IdempotencyCheck debitCheck(CoveredDebitEndpoint endpoint) {
        server = FakeServer.serving(endpoint);
        return Debits.check(server, account);
    }
}
