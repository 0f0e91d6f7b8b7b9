package dev.idempotency.metrics;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Feeds the server's own metrics system, when the application can reach one: WildFly's Micrometer
 * subsystem ({@code MeterRegistry}), or MicroProfile Metrics ({@code MetricRegistry}, as on Open Liberty's
 * {@code mpMetrics} feature). Both are looked up through CDI, so the application must use CDI; without
 * either, only JMX counts.
 *
 * <p>The lookup happens on the first request, not at deployment: CDI is not ready yet when the filter
 * starts up, and a metrics system the server does not offer must cost nothing. Nothing of either API is
 * bundled: the classes that touch them are loaded only when the API is visible to the application.
 *
 * <p>Thread-safe.
 */
public final class ServerMetrics implements OutcomeListener {
    private static final Logger LOG = Logger.getLogger(ServerMetrics.class.getName());
    private static final OutcomeListener NONE = new OutcomeListener() {
        @Override
        public void requestEnded(String operation, Outcome outcome) {}

        @Override
        public void waitedForDuplicate(String operation, Duration waited) {}
    };

    private final String application;
    private volatile OutcomeListener connected;

    /** @param application the application's context path, a tag on every metric (servers share a registry) */
    public ServerMetrics(String application) {
        this.application = application.isEmpty() ? "/" : application;
    }

    @Override
    public void requestEnded(String operation, Outcome outcome) {
        connected().requestEnded(operation, outcome);
    }

    @Override
    public void waitedForDuplicate(String operation, Duration waited) {
        connected().waitedForDuplicate(operation, waited);
    }

    private OutcomeListener connected() {
        OutcomeListener listener = connected;
        if (listener == null) {
            synchronized (this) {
                if (connected == null) {
                    connected = connect();
                }
                listener = connected;
            }
        }
        return listener;
    }

    private OutcomeListener connect() {
        Optional<OutcomeListener> found =
                attempt("io.micrometer.core.instrument.MeterRegistry", "Micrometer", MicrometerMetrics::connect);
        if (!found.isPresent()) {
            found = attempt(
                    "org.eclipse.microprofile.metrics.MetricRegistry",
                    "MicroProfile Metrics",
                    MicroProfileMetrics::connect);
        }
        if (!found.isPresent()) {
            LOG.fine(() -> "no server metrics system reachable from " + application + "; counting over JMX only");
        }
        return found.orElse(NONE);
    }

    private Optional<OutcomeListener> attempt(
            String apiClass, String system, Function<String, Optional<OutcomeListener>> connector) {
        if (!visible(apiClass)) {
            return Optional.empty();
        }
        try {
            Optional<OutcomeListener> listener = connector.apply(application);
            listener.ifPresent(l -> LOG.info("idempotency metrics of " + application + " are also published to the"
                    + " server's " + system + " registry, as idempotency.requests and idempotency.duplicate.wait"));
            return listener;
        } catch (RuntimeException | LinkageError e) {
            LOG.info(system + " is on the class path, but its registry could not be reached from " + application + " ("
                    + e + "; the application may not use CDI); counting over JMX only");
            LOG.log(Level.FINE, "looking up the " + system + " registry failed", e);
            return Optional.empty();
        }
    }

    private static boolean visible(String className) {
        try {
            Class.forName(className, false, Thread.currentThread().getContextClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
