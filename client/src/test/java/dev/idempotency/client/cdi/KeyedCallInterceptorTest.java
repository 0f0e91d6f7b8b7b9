package dev.idempotency.client.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.client.IdempotentCall;
import dev.idempotency.client.RetryPolicy;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.io.FileNotFoundException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The interceptor with a scripted {@link InvocationContext}: each {@code proceed()} is one attempt of the method,
 * as Fault Tolerance's retries or the interceptor's own make them. The interceptor's waits are recorded, never
 * slept.
 */
class KeyedCallInterceptorTest {
    private final KeyedCallInterceptor interceptor = new KeyedCallInterceptor();
    private final List<Duration> waits = new ArrayList<>();

    @BeforeEach
    void neverWait() {
        interceptor.baseline =
                RetryPolicy.builder().sleeper(waits::add).random(() -> 0.5).build();
    }

    private final Deque<Callable<Object>> attempts = new ArrayDeque<>();
    private final List<String> keysSeen = new ArrayList<>();

    interface Payments {
        @KeyedCall
        String charge();

        @KeyedCall(retry = true)
        String chargeWithRetries();

        @KeyedCall(retry = true)
        String chargeOrThrow() throws FileNotFoundException;
    }

    @AfterEach
    void noCallLeftOpen() {
        assertFalse(IdempotentCall.current().isPresent());
    }

    private Object invoke(String methodName) throws Exception {
        Method method = Payments.class.getMethod(methodName);
        InvocationContext invocation = (InvocationContext) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {InvocationContext.class}, (proxy, called, args) -> {
                    switch (called.getName()) {
                        case "getMethod":
                            return method;
                        case "proceed":
                            keysSeen.add(IdempotentCall.current().orElseThrow().key());
                            return attempts.removeFirst().call();
                        default:
                            throw new UnsupportedOperationException(called.getName());
                    }
                });
        return interceptor.oneKeyPerCall(invocation);
    }

    private static WebApplicationException status(int status, String... headers) {
        Response.ResponseBuilder response = Response.status(status);
        for (int i = 0; i < headers.length; i += 2) {
            response.header(headers[i], headers[i + 1]);
        }
        return new WebApplicationException(response.build());
    }

    @Test
    void runsOutsideFaultToleranceWhoseBasePriorityIs4010() {
        assertEquals(1010, KeyedCallInterceptor.PRIORITY);
        assertTrue(KeyedCallInterceptor.PRIORITY < Interceptor.Priority.PLATFORM_AFTER + 10);
    }

    @Test
    void holdsOneKeyAcrossRetriesMadeOutsideTheInterceptorsOwnLoop() throws Exception {
        // Fault Tolerance, inside this interceptor, calls proceed() of the next interceptor: one call, one key.
        attempts.add(() -> {
            String key = IdempotentCall.current().orElseThrow().key();
            try (IdempotentCall nested = IdempotentCall.open()) {
                assertEquals(key, nested.key(), "a nested call joins");
            }
            return "charged";
        });
        assertEquals("charged", invoke("charge"));
        attempts.add(() -> "charged again");
        invoke("charge");
        assertEquals(2, keysSeen.stream().distinct().count(), "each invocation is a new call");
    }

    @Test
    void withoutRetryLetsAnErrorStatusThrough() {
        WebApplicationException unavailable = status(503, "retry-after-ms", "0");
        attempts.add(() -> {
            throw unavailable;
        });
        assertSame(unavailable, assertThrows(WebApplicationException.class, () -> invoke("charge")));
        assertEquals(1, keysSeen.size());
    }

    @Test
    void retriesARetriableStatusWithTheSameKey() throws Exception {
        attempts.add(() -> {
            throw status(409, "Retry-After", "1");
        });
        attempts.add(() -> {
            throw new ProcessingException(new SocketTimeoutException("Read timed out"));
        });
        attempts.add(() -> "charged");
        assertEquals("charged", invoke("chargeWithRetries"));
        assertEquals(List.of(Duration.ofMillis(1250), Duration.ofMillis(500)), waits);
        assertEquals(3, keysSeen.size());
        assertEquals(1, keysSeen.stream().distinct().count());
    }

    @Test
    void keepsTheReplayTheFilterRecordedWhenItRetriesItself() throws Exception {
        attempts.add(() -> {
            throw new ProcessingException(new SocketTimeoutException("Read timed out"));
        });
        attempts.add(() -> {
            // What IdempotencyKeyFilter does as the replayed answer passes.
            IdempotentCall.current().orElseThrow().recordAnswer(Map.of("Idempotent-Replayed", "true")::get);
            return "charged";
        });
        try (IdempotentCall call = IdempotentCall.open()) {
            assertEquals("charged", invoke("chargeWithRetries"));
            assertTrue(call.isReplayed());
        }
    }

    @Test
    void throwsAFinalStatusAtOnce() {
        WebApplicationException unprocessable = status(422);
        attempts.add(() -> {
            throw unprocessable;
        });
        assertSame(unprocessable, assertThrows(WebApplicationException.class, () -> invoke("chargeWithRetries")));
        assertEquals(1, keysSeen.size());
    }

    @Test
    void throwsTheMethodsCheckedExceptionAsItIs() {
        FileNotFoundException missing = new FileNotFoundException("no such account");
        attempts.add(() -> {
            throw missing;
        });
        assertSame(missing, assertThrows(FileNotFoundException.class, () -> invoke("chargeOrThrow")));
    }
}
