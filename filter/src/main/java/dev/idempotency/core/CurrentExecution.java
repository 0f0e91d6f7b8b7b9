package dev.idempotency.core;

import dev.idempotency.IdempotentExecution;
import java.util.Optional;

/**
 * The execution the application runs under on the current thread, for code that cannot reach the request (a
 * JAX-RS client filter, a CDI producer). An entry point binds it only around the application's run, and always
 * unbinds it, so a pooled thread never carries one request's execution into the next.
 *
 * <p>Thread-safe: each thread sees only its own binding.
 */
public final class CurrentExecution {
    private static final ThreadLocal<IdempotentExecution> ON_THIS_THREAD = new ThreadLocal<>();

    private CurrentExecution() {}

    public static Optional<IdempotentExecution> get() {
        return Optional.ofNullable(ON_THIS_THREAD.get());
    }

    /** Makes {@code execution} current on this thread until the binding is closed. */
    public static Binding bind(IdempotentExecution execution) {
        Binding binding = new Binding(ON_THIS_THREAD.get());
        ON_THIS_THREAD.set(execution);
        return binding;
    }

    /** Ends a binding, giving the thread back what it had before (normally nothing). */
    public static final class Binding implements AutoCloseable {
        private final IdempotentExecution previous;

        private Binding(IdempotentExecution previous) {
            this.previous = previous;
        }

        @Override
        public void close() {
            if (previous == null) {
                ON_THIS_THREAD.remove();
            } else {
                ON_THIS_THREAD.set(previous);
            }
        }
    }
}
