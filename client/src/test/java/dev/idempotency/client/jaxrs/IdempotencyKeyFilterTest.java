package dev.idempotency.client.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.client.IdempotentCall;
import dev.idempotency.core.CurrentExecution;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.store.RequestResultId;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The filter registered on RESTEasy's client, against a real socket. */
@SuppressWarnings("try") // scopes opened for their effect on the thread
class IdempotencyKeyFilterTest {
    private final IdempotentServer service = new IdempotentServer();
    private ScriptedServer server;
    private Client client;
    private WebTarget orders;

    @BeforeEach
    void start() throws Exception {
        server = new ScriptedServer();
        client = ClientBuilder.newClient().register(IdempotencyKeyFilter.class);
        orders = client.target(server.uri("/orders?at=1"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.close();
    }

    private String keyOfRequest(int index) {
        return server.received.get(index).header("Idempotency-Key");
    }

    @Test
    void keysAPostOutsideAnyCallWithAKeyOfItsOwn() {
        server.then(service.answers).then(service.answers);
        orders.request().post(Entity.text("a")).close();
        orders.request().post(Entity.text("b")).close();
        assertEquals(keyOfRequest(0), UUID.fromString(keyOfRequest(0)).toString());
        assertNotEquals(keyOfRequest(0), keyOfRequest(1));
    }

    @Test
    void keysPatchButNotGetPutOrDelete() {
        server.then(service.answers).then(service.answers).then(service.answers).then(service.answers);
        orders.request().method("PATCH", Entity.text("a")).close();
        orders.request().get().close();
        orders.request().put(Entity.text("a")).close();
        orders.request().delete().close();
        assertTrue(keyOfRequest(0) != null);
        assertNull(keyOfRequest(1));
        assertNull(keyOfRequest(2));
        assertNull(keyOfRequest(3));
    }

    @Test
    void leavesTheApplicationsOwnKeyAlone() {
        server.then(service.answers);
        orders.request()
                .header("Idempotency-Key", "mine-1")
                .post(Entity.text("a"))
                .close();
        assertEquals("mine-1", keyOfRequest(0));
    }

    @Test
    void holdsOneKeyAcrossACallersOwnRetriesInsideACall() {
        // As MicroProfile Fault Tolerance's @Retry does inside @KeyedCall: the retry is the caller's, not ours.
        server.then(service.losesTheAnswer).then(service.answers);
        try (IdempotentCall call = IdempotentCall.open()) {
            assertThrows(ProcessingException.class, () -> orders.request().post(Entity.text("a")));
            assertFalse(call.isReplayed());
            orders.request().post(Entity.text("a")).close();
            assertTrue(call.isReplayed(), "the filter saw Idempotent-Replayed: true");
            assertEquals(call.key(), keyOfRequest(0));
            assertEquals(call.key(), keyOfRequest(1));
        }
        assertEquals(1, service.effects());
    }

    @Test
    void derivesTheKeyInsideACoveredRequestAsDerivedKeyClientFilterDoes() {
        IdempotentExecution covered = new RunningExecution(new RequestResultId("alice", "checkout:v1", "order-7"));
        server.then(service.answers).then(service.answers);
        try (CurrentExecution.Binding binding = CurrentExecution.bind(covered)) {
            orders.request().post(Entity.text("a")).close();
            orders.request()
                    .property(IdempotencyKeyFilter.LABEL_PROPERTY, "charge")
                    .post(Entity.text("a"))
                    .close();
        }
        assertEquals(covered.deriveKey("POST " + server.uri("/orders")), keyOfRequest(0));
        assertEquals(covered.deriveKey("charge"), keyOfRequest(1));
    }
}
