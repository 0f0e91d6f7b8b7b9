package dev.idempotency.runtime;

import jakarta.servlet.ServletContext;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One runtime per filter name in a servlet context, kept as a context attribute, so the filter, the admin
 * servlet and the start-up check of one application share one configuration, one rollout cache and one set of
 * counters, and two applications on one server share nothing.
 *
 * <p>Thread-safe: building and registering a runtime holds the servlet context's lock, so one is built per name.
 */
final class RuntimeRegistry {
    private static final String ATTRIBUTE_PREFIX = FilterRuntime.class.getName() + ".";

    private RuntimeRegistry() {}

    /** The runtime registered under this name, or the one {@code build} makes, registered before it is returned. */
    static FilterRuntime of(ServletContext servletContext, String filterName, Supplier<FilterRuntime> build) {
        synchronized (servletContext) {
            Optional<FilterRuntime> existing = find(servletContext, filterName);
            if (existing.isPresent()) {
                return existing.get();
            }
            FilterRuntime runtime = build.get();
            servletContext.setAttribute(ATTRIBUTE_PREFIX + filterName, runtime);
            return runtime;
        }
    }

    /** The runtime registered under this name, if one was built. */
    static Optional<FilterRuntime> find(ServletContext servletContext, String filterName) {
        return servletContext.getAttribute(ATTRIBUTE_PREFIX + filterName) instanceof FilterRuntime runtime
                ? Optional.of(runtime)
                : Optional.empty();
    }
}
