package dev.idempotency.servlet;

import dev.idempotency.IdempotentExecution;
import dev.idempotency.core.CurrentExecution;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import java.io.IOException;

/**
 * Shows the application the execution it runs under, as the request attribute {@value
 * IdempotentExecution#REQUEST_ATTRIBUTE} and on the request's thread, for exactly as long as it runs: set just
 * before the filter chain continues, removed as soon as it returns or throws.
 *
 * <p>Stateless and thread-safe.
 */
final class ExposedExecution {
    /** The rest of the filter chain: the application. */
    @FunctionalInterface
    interface Application {
        void run() throws IOException, ServletException;
    }

    private ExposedExecution() {}

    static void during(IdempotentExecution execution, ServletRequest request, Application application)
            throws IOException, ServletException {
        CurrentExecution.Binding binding = CurrentExecution.bind(execution);
        try {
            request.setAttribute(IdempotentExecution.REQUEST_ATTRIBUTE, execution);
            try {
                application.run();
            } finally {
                request.removeAttribute(IdempotentExecution.REQUEST_ATTRIBUTE);
            }
        } finally {
            binding.close();
        }
    }
}
