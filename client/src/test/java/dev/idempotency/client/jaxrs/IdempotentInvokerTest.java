package dev.idempotency.client.jaxrs;

import static dev.idempotency.client.jaxrs.ScriptedServer.answer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.client.CallResult;
import dev.idempotency.client.RetryPolicy;
import dev.idempotency.core.CurrentExecution;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.store.RequestResultId;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The invoker on RESTEasy's client against a real socket: lost answers, hints, final statuses. */
@SuppressWarnings("try") // scopes opened for their effect on the thread
class IdempotentInvokerTest {
    private final List<Duration> waits = new ArrayList<>();
    private final RetryPolicy policy =
            RetryPolicy.builder().sleeper(waits::add).random(() -> 0.5).build();
    private final IdempotentServer service = new IdempotentServer();
    private ScriptedServer server;
    private Client client;
    private WebTarget orders;

    @BeforeEach
    void start() throws Exception {
        server = new ScriptedServer();
        client = ClientBuilder.newClient();
        orders = client.target(server.uri("/orders"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.close();
    }

    private List<String> keysReceived() {
        return server.received.stream().map(r -> r.header("Idempotency-Key")).collect(Collectors.toList());
    }

    @Test
    void retriesALostAnswerWithTheSameKeyAndGetsTheFirstExecutionsAnswer() {
        server.then(service.losesTheAnswer).then(service.answers);

        CallResult<Response> result = IdempotentInvoker.post(orders, Entity.text("one order"), policy);

        try (Response answer = result.response()) {
            assertEquals(201, answer.getStatus());
            assertEquals("order-1", answer.readEntity(String.class));
        }
        assertTrue(result.isReplayed());
        assertEquals(2, result.attempts());
        assertEquals(1, service.effects());
        assertEquals(List.of(result.key(), result.key()), keysReceived());
        assertEquals("one order", server.received.get(1).body);
    }

    @Test
    void withoutTheKeyTheSameLostAnswerMakesADuplicate() {
        server.then(service.losesTheAnswer).then(service.answers);
        assertThrows(ProcessingException.class, () -> orders.request().post(Entity.text("one order")));
        orders.request().post(Entity.text("one order")).close();
        assertEquals(2, service.effects());
    }

    @Test
    void waitsAsTheFiltersInFlightAnswerAsksThenRetries() {
        server.then(r -> answer(409, "in flight", "Retry-After: 1", "retry-after-ms: 800"))
                .then(r -> answer(503, "", "Retry-After: 2"))
                .then(service.answers);

        CallResult<Response> result = IdempotentInvoker.post(orders, Entity.text("x"), policy);

        result.response().close();
        assertEquals(3, result.attempts());
        assertFalse(result.isReplayed());
        assertEquals(List.of(Duration.ofMillis(1050), Duration.ofMillis(2500)), waits);
        assertEquals(1, keysReceived().stream().distinct().count());
    }

    @Test
    void returnsA422AtOnce() {
        server.then(r -> answer(422, "another body for this key"));
        CallResult<Response> result = IdempotentInvoker.post(orders, Entity.text("x"), policy);
        assertEquals(422, result.response().getStatus());
        result.response().close();
        assertEquals(1, server.received.size());
        assertEquals(List.of(), waits);
    }

    @Test
    void honoursShouldRetryFalseOnA503() {
        server.then(r -> answer(503, "", "x-should-retry: false", "Retry-After: 1"));
        CallResult<Response> result = IdempotentInvoker.post(orders, Entity.text("x"), policy);
        result.response().close();
        assertEquals(1, result.attempts());
    }

    @Test
    void givesEachInvocationANewKey() {
        server.then(service.answers).then(service.answers);
        String first = IdempotentInvoker.post(orders, Entity.text("a"), policy).key();
        String second = IdempotentInvoker.post(orders, Entity.text("b"), policy).key();
        assertNotEquals(first, second);
        assertEquals(List.of(first, second), keysReceived());
    }

    @Test
    void derivesTheKeyInsideACoveredRequest() {
        IdempotentExecution covered = new RunningExecution(new RequestResultId("alice", "checkout:v1", "order-7"));
        server.then(service.answers);
        try (CurrentExecution.Binding binding = CurrentExecution.bind(covered)) {
            String key =
                    IdempotentInvoker.post(orders, Entity.text("x"), policy).key();
            assertEquals(covered.deriveKey("POST " + server.uri("/orders")), key);
        }
    }

    @Test
    void sendsOtherMethodsWithTheCallersPreparation() {
        server.then(service.answers);
        CallResult<Response> result = IdempotentInvoker.invoke(
                "PATCH", orders, Entity.text("x"), t -> t.request().header("X-Tenant", "blue"), policy);
        result.response().close();
        assertEquals("PATCH", server.received.get(0).method);
        assertEquals("blue", server.received.get(0).header("X-Tenant"));
        assertNotNull(server.received.get(0).header("Idempotency-Key"));
    }

    @Test
    void throwsTheClientsFailureOnceTheAttemptsAreSpent() throws Exception {
        URI nobody;
        try (ServerSocket closedAtOnce = new ServerSocket(0)) {
            nobody = URI.create("http://127.0.0.1:" + closedAtOnce.getLocalPort() + "/orders");
        }
        ProcessingException failure = assertThrows(
                ProcessingException.class,
                () -> IdempotentInvoker.post(client.target(nobody), Entity.text("x"), policy));
        assertTrue(causedBy(failure, ConnectException.class), failure::toString);
        assertEquals(2, waits.size(), "3 attempts");
    }

    private static boolean causedBy(Throwable failure, Class<?> kind) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (kind.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }
}
