package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.core.CurrentExecution;
import dev.idempotency.core.RunningExecution;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.testing.StrictProxy;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DerivedKeyClientFilterTest {
    private static final IdempotentExecution EXECUTION =
            new RunningExecution(new RequestResultId("alice", "checkout:v1", "order-7"));

    private final StrictProxy proxies = new StrictProxy();
    private final MultivaluedMap<String, Object> headers = new MultivaluedHashMap<>();
    private final Map<String, Object> properties = new HashMap<>();

    @AfterEach
    void noOtherCalls() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    /** An outbound call as JAX-RS hands it to a filter: method, target, headers and properties. */
    private ClientRequestContext call(String method, String uri) {
        return proxies.of(
                ClientRequestContext.class,
                Map.of(
                        "getMethod", args -> method,
                        "getUri", args -> URI.create(uri),
                        "getHeaders", args -> headers,
                        "getHeaderString", args -> headers.getFirst((String) args[0]),
                        "getProperty", args -> properties.get((String) args[0])));
    }

    private void filterInsideExecution(DerivedKeyClientFilter filter, ClientRequestContext call) {
        CurrentExecution.Binding binding = CurrentExecution.bind(EXECUTION);
        try {
            filter.filter(call);
        } finally {
            binding.close();
        }
    }

    @Test
    void addsNothingOutsideAnExecutionAndDoesNotEvenLookAtTheCall() {
        ClientRequestContext untouchable = proxies.of(ClientRequestContext.class, Map.of());
        new DerivedKeyClientFilter().filter(untouchable);
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void labelsACallByMethodAndTargetWithoutQuery() {
        filterInsideExecution(
                new DerivedKeyClientFilter(), call("POST", "https://pay.example:8443/v1/charges?at=12345#top"));

        assertEquals(
                List.of(EXECUTION.deriveKey("POST https://pay.example:8443/v1/charges")),
                headers.get(DerivedKeyClientFilter.DEFAULT_HEADER));
    }

    @Test
    void theSameCallOnARetryGetsTheSameKeyAndAnotherTargetAnother() {
        filterInsideExecution(new DerivedKeyClientFilter(), call("POST", "http://localhost:8080/callee/api/effects"));
        Object first = headers.getFirst("Idempotency-Key");
        headers.clear();
        filterInsideExecution(
                new DerivedKeyClientFilter(), call("POST", "http://localhost:8080/callee/api/effects?retry=1"));
        assertEquals(first, headers.getFirst("Idempotency-Key"));

        headers.clear();
        filterInsideExecution(new DerivedKeyClientFilter(), call("POST", "http://localhost:8080/callee/api/other"));
        assertNotEquals(first, headers.getFirst("Idempotency-Key"));
    }

    @Test
    void usesTheLabelPropertyWhenTheCallHasOne() {
        properties.put(DerivedKeyClientFilter.LABEL_PROPERTY, "refund-2");
        filterInsideExecution(new DerivedKeyClientFilter(), call("POST", "https://pay.example/v1/refunds"));

        assertEquals(List.of(EXECUTION.deriveKey("refund-2")), headers.get("Idempotency-Key"));
    }

    @Test
    void leavesAKeyTheApplicationSetUntouched() {
        headers.putSingle("Idempotency-Key", "chosen-by-the-application");
        filterInsideExecution(new DerivedKeyClientFilter(), call("POST", "https://pay.example/v1/charges"));

        assertEquals(List.of("chosen-by-the-application"), headers.get("Idempotency-Key"));
    }

    @Test
    void addsNoKeyToSafeMethods() {
        for (String method : List.of("GET", "HEAD", "OPTIONS", "TRACE")) {
            filterInsideExecution(new DerivedKeyClientFilter(), call(method, "https://pay.example/v1/charges"));
        }
        assertEquals(Map.of(), headers);
    }

    @Test
    void sendsTheKeyInTheHeaderTheServiceReads() {
        filterInsideExecution(
                new DerivedKeyClientFilter("X-Idempotency-Key"), call("PUT", "https://pay.example/v1/payouts/9"));

        assertEquals(
                List.of(EXECUTION.deriveKey("PUT https://pay.example/v1/payouts/9")), headers.get("X-Idempotency-Key"));
        assertEquals(null, headers.get("Idempotency-Key"));
    }

    @Test
    void refusesAHeaderWithoutName() {
        assertThrows(IllegalArgumentException.class, () -> new DerivedKeyClientFilter(" "));
        assertThrows(IllegalArgumentException.class, () -> new DerivedKeyClientFilter(null));
    }
}
