package dev.idempotency.client.cdi;

import dev.idempotency.client.CallResult;
import dev.idempotency.client.IdempotentCall;
import dev.idempotency.client.RetryLoop;
import dev.idempotency.client.RetryPolicy;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.time.Duration;

/**
 * Runs a {@link KeyedCall} method as one {@link IdempotentCall}, and with {@code retry = true} retries it.
 *
 * <p>Its priority, {@value #PRIORITY}, is below MicroProfile Fault Tolerance's ({@code PLATFORM_AFTER + 10}, 4010,
 * unless {@code mp.fault.tolerance.interceptor.priority} moves it): a lower priority runs first, so this
 * interceptor is outside {@code @Retry} and every retry Fault Tolerance makes runs inside the same call, with the
 * same key. Inside it, the key would be new on every retry.
 *
 * <p>Stateless and thread-safe.
 */
@KeyedCall
@Interceptor
@Priority(KeyedCallInterceptor.PRIORITY)
public class KeyedCallInterceptor {
    /** {@code Interceptor.Priority.LIBRARY_BEFORE + 10}: outside Fault Tolerance, inside transaction interceptors. */
    public static final int PRIORITY = Interceptor.Priority.LIBRARY_BEFORE + 10;

    /** What the annotation's bounds are applied to: the defaults, or in tests a clock and sleeper that never wait. */
    RetryPolicy baseline = RetryPolicy.defaults();

    @AroundInvoke
    @SuppressWarnings("try") // the call is a scope: opening it is the point, its key is read by the filter
    public Object oneKeyPerCall(InvocationContext invocation) throws Exception {
        Method method = invocation.getMethod();
        KeyedCall binding = bindingOf(method);
        try (IdempotentCall call =
                IdempotentCall.open(method.getDeclaringClass().getName() + "#" + method.getName())) {
            if (binding == null || !binding.retry()) {
                return invocation.proceed();
            }
            RetryPolicy policy = baseline.toBuilder()
                    .maxAttempts(binding.maxAttempts())
                    .maxTotalTime(Duration.ofSeconds(binding.maxTotalSeconds()))
                    .build();
            CallResult<Outcome> result = RetryLoop.run(
                    policy, unused -> Outcome.of(invocation), Outcome::status, Outcome::header, outcome -> {});
            return result.response().valueOrThrow();
        } catch (Thrown thrown) {
            throw thrown.checked;
        }
    }

    private static KeyedCall bindingOf(Method method) {
        KeyedCall onMethod = method.getAnnotation(KeyedCall.class);
        return onMethod != null ? onMethod : method.getDeclaringClass().getAnnotation(KeyedCall.class);
    }

    /**
     * What one attempt ended with: a value, or the Rest Client's exception for an error status, read as an
     * answer with that status and headers so that the policy decides on it as on any answer. A value has no
     * headers of its own: whether it was a replay is what {@code IdempotencyKeyFilter} recorded on the call as the
     * answer passed, carried on here so that the loop's own record of the answer keeps it.
     */
    private static final class Outcome {
        private final Object value;
        private final WebApplicationException error;
        private final boolean replayed;

        private Outcome(Object value, WebApplicationException error) {
            this.value = value;
            this.error = error;
            this.replayed =
                    IdempotentCall.current().map(IdempotentCall::isReplayed).orElse(false);
        }

        static Outcome of(InvocationContext invocation) {
            try {
                return new Outcome(invocation.proceed(), null);
            } catch (WebApplicationException error) {
                if (error.getResponse() == null) {
                    throw error;
                }
                return new Outcome(null, error);
            } catch (RuntimeException unchecked) {
                throw unchecked;
            } catch (Exception checked) {
                throw new Thrown(checked);
            }
        }

        int status() {
            return error == null
                    ? Response.Status.OK.getStatusCode()
                    : error.getResponse().getStatus();
        }

        String header(String name) {
            if (error != null) {
                return error.getResponse().getHeaderString(name);
            }
            return replayed && IdempotentCall.REPLAYED_HEADER.equalsIgnoreCase(name) ? "true" : null;
        }

        Object valueOrThrow() {
            if (error != null) {
                throw error;
            }
            return value;
        }
    }

    /**
     * Carries a checked exception of the method through the retry loop. A Rest Client throws one only from the
     * application's own {@code ResponseExceptionMapper}, for an answer; transport failures are unchecked ({@code
     * ProcessingException}). So it hides its cause from the policy and is never retried, even an {@code
     * IOException}.
     */
    private static final class Thrown extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final Exception checked;

        Thrown(Exception checked) {
            super(checked.toString(), null, false, false);
            this.checked = checked;
        }
    }
}
