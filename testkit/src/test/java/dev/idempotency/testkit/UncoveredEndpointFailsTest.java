package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Against an endpoint that executes every request, the checks fail: the kit catches a double debit. */
class UncoveredEndpointFailsTest {
    private final FakeAccount account = new FakeAccount(10_000);
    private FakeServer server;
    private IdempotencyCheck debit;

    @BeforeEach
    void startUncoveredEndpoint() {
        server = FakeServer.serving(new UncoveredDebitEndpoint(account));
        debit = Debits.check(server, account);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void lostResponseCheckFailsBecauseTheRetryExecutesAgain() {
        AssertionFailedError failure = assertThrows(AssertionFailedError.class, debit::lostResponseIsReplayed);

        assertTrue(failure.getMessage().contains("must be a replay"), failure.getMessage());
        assertTrue(failure.getMessage().contains("that is 2 execution(s)"), failure.getMessage());
        assertEquals(9_800, account.balance());
    }

    @Test
    void lostResponseCheckFailsOnTheMissingReplayHeaderEvenWithoutAProbe() {
        IdempotencyCheck unobserved = IdempotencyCheck.of(Debits.template(server));

        assertThrows(AssertionFailedError.class, unobserved::lostResponseIsReplayed);
    }

    @Test
    void concurrentDuplicatesCheckFailsBecauseEveryCopyExecutes() {
        AssertionFailedError failure =
                assertThrows(AssertionFailedError.class, () -> debit.concurrentDuplicatesExecuteOnce(5));

        assertTrue(
                failure.getMessage().contains("exactly one reply must come from an execution"), failure.getMessage());
        assertEquals(9_500, account.balance());
    }

    @Test
    void keyReuseCheckFailsBecauseTheChangedBodyExecutes() {
        AssertionFailedError failure = assertThrows(
                AssertionFailedError.class, () -> debit.keyReuseWithChangedBodyIsRejected("{\"amount\": 101}"));

        assertTrue(failure.getMessage().contains("must be refused with 422"), failure.getMessage());
    }
}
