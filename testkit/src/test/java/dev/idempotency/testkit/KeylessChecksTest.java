package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Each keyless check passes in the rollout mode it asserts and fails in the others. */
class KeylessChecksTest {
    private final FakeAccount account = new FakeAccount(10_000);
    private FakeServer server;

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void keylessRequestIsRefusedUnderRequiredWithoutADebit() {
        debitIn(FakeRolloutMode.REQUIRED).keylessRequestIsRefused();

        assertEquals(10_000, account.balance());
    }

    @Test
    void keylessRefusalCheckFailsUnderOptional() {
        IdempotencyCheck debit = debitIn(FakeRolloutMode.OPTIONAL);

        assertThrows(AssertionFailedError.class, debit::keylessRequestIsRefused);
    }

    @Test
    void keylessRequestPassesWithDeprecationUnderOptional() {
        debitIn(FakeRolloutMode.OPTIONAL).keylessRequestPasses();

        assertEquals(9_900, account.balance());
    }

    @Test
    void keylessPassingCheckFailsUnderRequired() {
        IdempotencyCheck debit = debitIn(FakeRolloutMode.REQUIRED);

        assertThrows(AssertionFailedError.class, debit::keylessRequestPasses);
    }

    @Test
    void keylessPassingCheckFailsUnderDrainWhichSendsNoDeprecation() {
        IdempotencyCheck debit = debitIn(FakeRolloutMode.DRAIN);

        assertThrows(AssertionFailedError.class, debit::keylessRequestPasses);
    }

    @Test
    void keylessRequestPassesWithoutDeprecationUnderDrainAndOff() {
        debitIn(FakeRolloutMode.DRAIN).keylessRequestPassesWithoutDeprecation();
        server.close();
        debitIn(FakeRolloutMode.OFF).keylessRequestPassesWithoutDeprecation();

        assertEquals(9_800, account.balance());
    }

    @Test
    void keylessPassingWithoutDeprecationCheckFailsUnderOptional() {
        IdempotencyCheck debit = debitIn(FakeRolloutMode.OPTIONAL);

        assertThrows(AssertionFailedError.class, debit::keylessRequestPassesWithoutDeprecation);
    }

    private IdempotencyCheck debitIn(FakeRolloutMode mode) {
        server = FakeServer.serving(CoveredDebitEndpoint.inMode(mode, account));
        return Debits.check(server, account);
    }
}
