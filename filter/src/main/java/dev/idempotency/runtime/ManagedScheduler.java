package dev.idempotency.runtime;

import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;

/**
 * The container's default managed scheduler (Jakarta Concurrency), found by its standard JNDI name and used as
 * the plain {@link ScheduledExecutorService} it extends, so that no class of the filter refers to the
 * Concurrency API: on a server without it (Open Liberty without {@code concurrent-3.0}) the lookup finds nothing,
 * one WARNING says what is lost and what to add, and the application starts. Threads of its own are not an option
 * in a Jakarta EE container; the housekeeping then runs on requests ({@link Housekeeping}).
 *
 * <p>Stateless.
 */
final class ManagedScheduler {
    static final String JNDI_NAME = "java:comp/DefaultManagedScheduledExecutorService";
    private static final Logger LOG = Logger.getLogger(ManagedScheduler.class.getName());

    private ManagedScheduler() {}

    /** The container's scheduler, or empty after one WARNING naming what the filter does without it. */
    static Optional<ScheduledExecutorService> find(String filterName) {
        Optional<ScheduledExecutorService> found = lookup();
        if (!found.isPresent()) {
            LOG.warning(missing(filterName));
        }
        return found;
    }

    /** The WARNING of a server without a managed scheduler: what works differently, and how to get it back. */
    static String missing(String filterName) {
        return "idempotency filter '" + filterName + "': the server offers no managed scheduler (" + JNDI_NAME
                + ", Jakarta Concurrency), so expired records are purged on requests instead (at most once per"
                + " purge-interval, by the request that finds the interval over), this node's counts are added to"
                + " idempotency_counter in the same way, and keyless requests are not summarized in the log. Replay,"
                + " 422 and one execution per key work as before. To run the housekeeping in the background, enable"
                + " Jakarta Concurrency (on Open Liberty, add the feature concurrent-3.0)";
    }

    private static Optional<ScheduledExecutorService> lookup() {
        try {
            return new InitialContext().lookup(JNDI_NAME) instanceof ScheduledExecutorService scheduler
                    ? Optional.of(scheduler)
                    : Optional.empty();
        } catch (NamingException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }
}
