package dev.idempotency.metrics;

import jakarta.enterprise.inject.spi.Unmanaged;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * The outcomes in the application-scoped MicroProfile Metrics {@link MetricRegistry} (Open Liberty's
 * {@code mpMetrics} feature). Loaded only when the MicroProfile Metrics API is visible to the application.
 *
 * <p>Thread-safe, as the registry is.
 */
final class MicroProfileMetrics implements OutcomeListener {
    private final MetricRegistry registry;
    private final Tag application;

    private MicroProfileMetrics(MetricRegistry registry, String application) {
        this.registry = registry;
        this.application = new Tag(MetricNames.APPLICATION, application);
    }

    /**
     * The registry is injected into a throw-away instance: Liberty's producer needs an injection point, so
     * {@code CDI.current().select(MetricRegistry.class)} answers {@code null} there.
     */
    static Optional<OutcomeListener> connect(String application) {
        Unmanaged.UnmanagedInstance<RegistryHolder> holder = new Unmanaged<>(RegistryHolder.class).newInstance();
        try {
            MetricRegistry registry = holder.produce().inject().get().registry;
            return Optional.ofNullable(registry).map(r -> new MicroProfileMetrics(r, application));
        } finally {
            holder.dispose();
        }
    }

    @Override
    public void requestEnded(String operation, Outcome outcome) {
        registry.counter(
                        MetricNames.REQUESTS,
                        application,
                        new Tag(MetricNames.OPERATION, operation),
                        new Tag(MetricNames.OUTCOME, outcome.name().toLowerCase(Locale.ROOT)))
                .inc();
    }

    @Override
    public void waitedForDuplicate(String operation, Duration waited) {
        registry.timer(MetricNames.DUPLICATE_WAIT, application, new Tag(MetricNames.OPERATION, operation))
                .update(waited);
    }

    /** Only an injection target; never a bean of the application. */
    public static final class RegistryHolder {
        @Inject
        MetricRegistry registry;
    }
}
