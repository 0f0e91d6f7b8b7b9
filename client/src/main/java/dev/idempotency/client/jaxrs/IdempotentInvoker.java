package dev.idempotency.client.jaxrs;

import dev.idempotency.client.CallResult;
import dev.idempotency.client.IdempotentCall;
import dev.idempotency.client.RetryLoop;
import dev.idempotency.client.RetryPolicy;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * Sends a keyed Jakarta REST request and retries it as a {@link RetryPolicy} allows, every attempt with the same
 * {@value IdempotentCall#KEY_HEADER}: Jakarta REST has no retry of its own to hook into.
 *
 * <pre>{@code
 * CallResult<Response> result = IdempotentInvoker.post(client.target(url), Entity.json(order));
 * try (Response answer = result.response()) {
 *     ... answer.getStatus(), result.isReplayed() ...
 * }
 * }</pre>
 *
 * <p>Each attempt builds its request afresh from the target, so an entity must be one that can be written more
 * than once (a string, bytes, an object the client serializes; not an {@code InputStream}). The key is the open
 * {@link IdempotentCall}'s on the calling thread, or one of the invocation's own; {@link IdempotencyKeyFilter}
 * need not be registered, and leaves the key alone if it is. The answer is returned whatever its status; only an
 * I/O failure the policy stops on is thrown, as the client threw it ({@code ProcessingException}).
 *
 * <p>Stateless and thread-safe.
 */
public final class IdempotentInvoker {
    private IdempotentInvoker() {}

    /** {@code POST} with {@link RetryPolicy#defaults()}. */
    public static CallResult<Response> post(WebTarget target, Entity<?> entity) {
        return invoke("POST", target, entity, WebTarget::request, RetryPolicy.defaults());
    }

    /** {@code POST} with the given policy. */
    public static CallResult<Response> post(WebTarget target, Entity<?> entity, RetryPolicy policy) {
        return invoke("POST", target, entity, WebTarget::request, policy);
    }

    /**
     * Any method, the request prepared by the caller on each attempt.
     *
     * @param method such as {@code POST} or {@code PATCH}
     * @param request makes the attempt's request from the target, such as {@code t -> t.request(APPLICATION_JSON)
     *     .header("X-Tenant", tenant)}; called once per attempt
     */
    public static CallResult<Response> invoke(
            String method,
            WebTarget target,
            Entity<?> entity,
            Function<WebTarget, Invocation.Builder> request,
            RetryPolicy policy) {
        String label = IdempotencyKeyFilter.labelOf(method, target.getUri());
        try {
            return RetryLoop.run(
                    policy,
                    call -> request.apply(target)
                            .header(IdempotentCall.KEY_HEADER, call.keyFor(label))
                            .method(method, entity),
                    Response::getStatus,
                    Response::getHeaderString,
                    Response::close);
        } catch (IOException cannotHappen) {
            // The attempts throw Jakarta REST's unchecked exceptions only.
            throw new UncheckedIOException(cannotHappen);
        }
    }
}
