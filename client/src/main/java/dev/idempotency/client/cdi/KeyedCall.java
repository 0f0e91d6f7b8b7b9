package dev.idempotency.client.cdi;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a CDI bean's method (or every method of a type) as one logical call: every keyed request sent while it
 * runs, on its thread, carries one {@code Idempotency-Key}, kept across MicroProfile Fault Tolerance's
 * {@code @Retry} and across this library's own retries, and a new invocation gets a new key.
 *
 * <p>On a MicroProfile Rest Client interface:
 *
 * <pre>{@code
 * @RegisterRestClient(configKey = "payments")
 * @RegisterProvider(IdempotencyKeyFilter.class)
 * public interface Payments {
 *     @POST
 *     @KeyedCall(retry = true)
 *     Charge charge(ChargeRequest request);
 * }
 * }</pre>
 *
 * <p>With {@code retry = true} the interceptor retries itself as {@link dev.idempotency.client.RetryPolicy}
 * decides (a Rest Client throws a {@code WebApplicationException} for a status of 400 and above; its status and
 * headers are read). Leave it false when Fault Tolerance's {@code @Retry} retries the method: the interceptor
 * runs outside it ({@link KeyedCallInterceptor#PRIORITY}) and only holds the key.
 *
 * <p>Needs the {@code idempotency-client} jar in a bean archive that CDI scans (the jar carries a {@code
 * beans.xml}); register {@code IdempotencyKeyFilter} to put the key on the requests.
 */
@Inherited
@InterceptorBinding
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface KeyedCall {
    /** Whether the interceptor retries the method itself; false when Fault Tolerance's {@code @Retry} does. */
    @Nonbinding
    boolean retry() default false;

    /** The most attempts when {@link #retry()} is true, the first included. */
    @Nonbinding
    int maxAttempts() default 3;

    /** The longest time in seconds from the first attempt to the last retry's start, when {@link #retry()}. */
    @Nonbinding
    long maxTotalSeconds() default 30;
}
