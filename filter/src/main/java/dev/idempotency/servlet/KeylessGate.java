package dev.idempotency.servlet;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.net.URI;
import java.security.Principal;
import java.time.Instant;
import java.util.Optional;

/**
 * The rollout's gate for a request without a key: every one is counted per client (so operators see who still
 * sends none), refused in {@code REQUIRED}, and in {@code OPTIONAL} let through with headers that tell its client
 * keys will become mandatory. In {@code DRAIN} it passes silently.
 *
 * <p>Thread-safe: the counters are.
 */
final class KeylessGate {
    private final KeylessTelemetry telemetry;
    private final ReplyCatalogue catalogue;
    private final Optional<Instant> sunset;
    private final Optional<URI> link;

    KeylessGate(IdempotencyConfig config, KeylessTelemetry telemetry, ReplyCatalogue catalogue) {
        this.telemetry = telemetry;
        this.catalogue = catalogue;
        this.sunset = config.keylessSunset();
        this.link = config.keylessLink();
    }

    /**
     * Counts the keyless request, then refuses it or lets it through to the application, unprotected.
     *
     * @param rollout the operation's rollout mode, read once for this request
     * @throws ProblemException {@code idempotency-key-required} in {@code REQUIRED}
     */
    void admit(
            HttpServletRequest request, HttpServletResponse response, Operation operation, RolloutModes.Setting rollout)
            throws ProblemException {
        Principal principal = request.getUserPrincipal();
        telemetry.count(
                operation.contract(),
                principal == null ? null : principal.getName(),
                request.getHeader("User-Agent"),
                KeylessRequests.describe(request));
        if (rollout.mode() == RolloutMode.REQUIRED) {
            throw catalogue.keyRequired(operation.contract());
        }
        if (rollout.mode() == RolloutMode.OPTIONAL) {
            announceDeprecation(response, rollout);
        }
    }

    /**
     * Tells keyless clients, in standard headers, that keys will become mandatory: {@code Deprecation} (RFC
     * 9745) dated when the operation's keys became optional, {@code Sunset} (RFC 8594) when a cut-over is
     * configured, and a {@code describedby} link to the migration guide.
     */
    private void announceDeprecation(HttpServletResponse response, RolloutModes.Setting rollout) {
        response.setHeader(
                WireNames.DEPRECATION_HEADER, "@" + rollout.changedAt().getEpochSecond());
        sunset.ifPresent(date -> response.setHeader(WireNames.SUNSET_HEADER, HttpDates.format(date)));
        link.ifPresent(guide -> response.addHeader(WireNames.LINK_HEADER, "<" + guide + ">; rel=\"describedby\""));
    }
}
