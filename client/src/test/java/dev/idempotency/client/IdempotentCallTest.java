package dev.idempotency.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.core.CurrentExecution;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.store.RequestResultId;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@SuppressWarnings("try") // scopes opened for their effect on the thread
class IdempotentCallTest {
    private static final IdempotentExecution COVERED =
            new RunningExecution(new RequestResultId("alice", "checkout:v1", "order-7"));

    @AfterEach
    void noCallLeftOpen() {
        assertFalse(IdempotentCall.current().isPresent(), "a test left a call open on the thread");
    }

    @Test
    void givesACallARandomUuidOutsideACoveredRequest() {
        try (IdempotentCall call = IdempotentCall.open()) {
            assertEquals(call.key(), UUID.fromString(call.key()).toString());
            assertEquals(call.key(), call.keyFor("POST http://pay.example/charges"));
            assertEquals(call.key(), IdempotentCall.current().get().key());
        }
    }

    @Test
    void givesEachLogicalCallANewKey() {
        String first;
        try (IdempotentCall call = IdempotentCall.open()) {
            first = call.key();
        }
        try (IdempotentCall call = IdempotentCall.open()) {
            assertNotEquals(first, call.key());
        }
    }

    @Test
    void nestedOpensJoinTheOuterCallAndOnlyTheOutermostCloseEndsIt() {
        try (IdempotentCall outer = IdempotentCall.open()) {
            try (IdempotentCall inner = IdempotentCall.open("charge")) {
                assertEquals(outer.key(), inner.key());
            }
            assertTrue(IdempotentCall.current().isPresent());
            assertEquals(outer.key(), IdempotentCall.current().get().key());
        }
        assertFalse(IdempotentCall.current().isPresent());
    }

    @Test
    void closingAHandleTwiceClosesItOnce() {
        try (IdempotentCall outer = IdempotentCall.open()) {
            IdempotentCall inner = IdempotentCall.open();
            inner.close();
            inner.close();
            assertTrue(IdempotentCall.current().isPresent(), "the outer call is still open");
        }
    }

    @Test
    void closingTheCurrentHandleLeavesTheCallOpen() {
        try (IdempotentCall call = IdempotentCall.open()) {
            IdempotentCall.current().get().close();
            assertTrue(IdempotentCall.current().isPresent());
            assertEquals(call.key(), IdempotentCall.current().get().key());
        }
    }

    @Test
    void isNotSeenOnAnotherThread() throws Exception {
        try (IdempotentCall call = IdempotentCall.open()) {
            assertFalse(
                    CompletableFuture.supplyAsync(() -> IdempotentCall.current().isPresent())
                            .get());
        }
    }

    @Test
    void derivesTheKeyFromTheCoveredRequestsKeyAndLabel() {
        try (CurrentExecution.Binding covered = CurrentExecution.bind(COVERED);
                IdempotentCall call = IdempotentCall.open("charge")) {
            assertEquals(COVERED.deriveKey("charge"), call.key());
        }
    }

    @Test
    void derivesAnUnlabelledCallsKeyFromItsFirstRequestAndKeepsIt() {
        try (CurrentExecution.Binding covered = CurrentExecution.bind(COVERED);
                IdempotentCall call = IdempotentCall.open()) {
            String charge = "POST https://pay.example/v1/charges";
            assertEquals(COVERED.deriveKey(charge), call.keyFor(charge));
            assertEquals(COVERED.deriveKey(charge), call.keyFor("POST https://pay.example/v1/other"));
            assertEquals(COVERED.deriveKey(charge), call.key());
        }
    }

    @Test
    void refusesToTellAnUnlabelledCoveredCallsKeyBeforeItsFirstRequest() {
        try (CurrentExecution.Binding covered = CurrentExecution.bind(COVERED);
                IdempotentCall call = IdempotentCall.open()) {
            IllegalStateException refusal = assertThrows(IllegalStateException.class, call::key);
            assertTrue(refusal.getMessage().contains("IdempotentCall.open(label)"), refusal.getMessage());
        }
    }

    @Test
    void refusesABlankLabel() {
        assertEquals(
                "a call's label names what it is for, such as \"charge\"; was \" \"",
                assertThrows(IllegalArgumentException.class, () -> IdempotentCall.open(" "))
                        .getMessage());
    }

    @Test
    void tellsWhetherTheLastAnswerWasAReplay() {
        try (IdempotentCall call = IdempotentCall.open()) {
            assertFalse(call.isReplayed());
            call.recordAnswer(Map.of("Idempotent-Replayed", "true")::get);
            assertTrue(call.isReplayed());
            call.recordAnswer(Map.<String, String>of()::get);
            assertFalse(call.isReplayed());
        }
    }
}
