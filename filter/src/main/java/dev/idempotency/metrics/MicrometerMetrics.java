package dev.idempotency.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.inject.spi.CDI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The outcomes in a Micrometer {@link MeterRegistry} that the server provides through CDI (WildFly's
 * Micrometer subsystem). Loaded only when Micrometer's API is visible to the application.
 *
 * <p>Meters are created with {@code registry.counter(...)} and {@code registry.timer(...)}: on WildFly only
 * meters made that way reach the server's registry (one built with {@code Counter.builder} stays local).
 *
 * <p>Thread-safe.
 */
final class MicrometerMetrics implements OutcomeListener {
    private final MeterRegistry registry;
    private final String application;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, Timer> waits = new ConcurrentHashMap<>();

    private MicrometerMetrics(MeterRegistry registry, String application) {
        this.registry = registry;
        this.application = application;
    }

    static Optional<OutcomeListener> connect(String application) {
        MeterRegistry registry = CDI.current().select(MeterRegistry.class).get();
        return Optional.ofNullable(registry).map(r -> new MicrometerMetrics(r, application));
    }

    @Override
    public void requestEnded(String operation, Outcome outcome) {
        counters.computeIfAbsent(
                        operation + ' ' + outcome,
                        id -> registry.counter(
                                MetricNames.REQUESTS,
                                MetricNames.APPLICATION,
                                application,
                                MetricNames.OPERATION,
                                operation,
                                MetricNames.OUTCOME,
                                outcome.name().toLowerCase(Locale.ROOT)))
                .increment();
    }

    @Override
    public void waitedForDuplicate(String operation, Duration waited) {
        waits.computeIfAbsent(
                        operation,
                        id -> registry.timer(
                                MetricNames.DUPLICATE_WAIT,
                                MetricNames.APPLICATION,
                                application,
                                MetricNames.OPERATION,
                                operation))
                .record(waited);
    }
}
