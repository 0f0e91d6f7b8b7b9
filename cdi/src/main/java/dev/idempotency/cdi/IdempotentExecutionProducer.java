package dev.idempotency.cdi;

import dev.idempotency.IdempotentExecution;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Produces;

/**
 * Makes {@link IdempotentExecution} injectable: {@code @Inject IdempotentExecution execution;} in any bean. The
 * bean is request-scoped, so a bean of a longer scope gets a proxy that always answers for the request at hand.
 *
 * <p>It answers with the execution the filter shows on the request's thread while the application runs for a
 * keyed request to a covered operation. Elsewhere (a keyless or uncovered request, a replay, another thread) its
 * first use in a request fails with an {@link IllegalStateException}; code that may run there asks {@link
 * IdempotentExecution#current()}, which answers empty instead.
 *
 * <p>Thread-safe: it holds no state.
 */
@Dependent
public class IdempotentExecutionProducer {
    @Produces
    @RequestScoped
    IdempotentExecution currentExecution() {
        return IdempotentExecution.current()
                .orElseThrow(() -> new IllegalStateException("no idempotent execution on this thread: the request is"
                        + " not a keyed request to a covered operation, its response is being replayed, or this code"
                        + " runs on another thread than the request's; use IdempotentExecution.current() where that"
                        + " can happen"));
    }
}
