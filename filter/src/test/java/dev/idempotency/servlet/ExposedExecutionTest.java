package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.core.CurrentExecution;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExposedExecutionTest {
    private final StrictProxy proxies = new StrictProxy();
    private final Map<String, Object> attributes = new HashMap<>();
    private final ServletRequest request = proxies.of(
            ServletRequest.class,
            Map.of(
                    "setAttribute", args -> attributes.put((String) args[0], args[1]),
                    "removeAttribute", args -> attributes.remove((String) args[0]),
                    "getAttribute", args -> attributes.get((String) args[0])));
    private final IdempotentExecution execution =
            new RunningExecution(new RequestResultId("alice", "debit:v1", "checkout-42"));

    @AfterEach
    void leavesNothingBehind() {
        assertEquals(Optional.empty(), IdempotentExecution.current());
        assertEquals(Map.of(), attributes);
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void theApplicationSeesItsExecutionAsRequestAttributeAndOnItsThread() throws Exception {
        assertEquals(Optional.empty(), IdempotentExecution.current());
        ExposedExecution.during(execution, request, () -> {
            assertSame(execution, request.getAttribute(IdempotentExecution.REQUEST_ATTRIBUTE));
            assertSame(execution, IdempotentExecution.current().orElseThrow());
            assertEquals("alice", IdempotentExecution.current().orElseThrow().scope());
        });
    }

    @Test
    void otherThreadsDoNotSeeIt() throws Exception {
        ExposedExecution.during(execution, request, () -> {
            Optional<IdempotentExecution> elsewhere =
                    CompletableFuture.supplyAsync(IdempotentExecution::current).join();
            assertEquals(Optional.empty(), elsewhere);
        });
    }

    @Test
    void isRemovedWhenTheApplicationThrows() {
        assertThrows(
                ServletException.class,
                () -> ExposedExecution.during(execution, request, () -> {
                    throw new ServletException("the application failed");
                }));
        assertThrows(
                IOException.class,
                () -> ExposedExecution.during(execution, request, () -> {
                    throw new IOException("the client went away");
                }));
        assertThrows(
                IllegalStateException.class,
                () -> ExposedExecution.during(execution, request, () -> {
                    throw new IllegalStateException("a bug");
                }));
    }

    @Test
    void givesTheThreadBackWhatItHadBefore() throws Exception {
        IdempotentExecution outer = new RunningExecution(new RequestResultId("bob", "refund:v1", "r-1"));
        CurrentExecution.Binding binding = CurrentExecution.bind(outer);
        try {
            ExposedExecution.during(
                    execution,
                    request,
                    () -> assertSame(execution, IdempotentExecution.current().orElseThrow()));
            assertSame(outer, IdempotentExecution.current().orElseThrow());
        } finally {
            binding.close();
        }
    }
}
