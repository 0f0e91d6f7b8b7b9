package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.rollout.KeylessHistory;
import dev.idempotency.rollout.KeylessTelemetry;
import dev.idempotency.rollout.ProbableDuplicates;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.testing.StrictProxy;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The rollout's gate for keyless requests: counted always, refused in REQUIRED, announced in OPTIONAL. */
class KeylessGateTest {
    private static final Instant CHANGED_AT = Instant.parse("2026-11-01T00:00:00Z");

    private final StrictProxy proxies = new StrictProxy();
    private final KeylessTelemetry telemetry = new KeylessTelemetry(
            new KeylessHistory(Clock.systemUTC()),
            new ProbableDuplicates(Duration.ofSeconds(10), 100, System::nanoTime));
    private final Operation operation = Operation.parse("POST /debits = debit:v1");
    /** Every header set on the response, in order, as {@code set Name: value} or {@code add Name: value}. */
    private final List<String> headers = new ArrayList<>();

    private final HttpServletResponse response = proxies.of(
            HttpServletResponse.class,
            Map.of(
                    "setHeader", args -> headers.add("set " + args[0] + ": " + args[1]),
                    "addHeader", args -> headers.add("add " + args[0] + ": " + args[1])));

    @AfterEach
    void nothingElseWasAsked() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    private KeylessGate gate(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("operations", "POST /debits = debit:v1");
        IdempotencyConfig config = SettingsParser.parse(all);
        return new KeylessGate(config, telemetry, new ReplyCatalogue(config.keyHeader(), 1024));
    }

    private HttpServletRequest request(String principal, String userAgent) {
        Principal caller = principal == null ? null : () -> principal;
        return proxies.of(
                HttpServletRequest.class,
                Map.of(
                        "getUserPrincipal", args -> caller,
                        "getHeader", args -> "User-Agent".equals(args[0]) ? userAgent : null,
                        "getMethod", args -> "POST",
                        "getRequestURI", args -> "/debits",
                        "getQueryString", args -> null,
                        "getContentType", args -> "application/json",
                        "getContentLengthLong", args -> 17L));
    }

    private static RolloutModes.Setting in(RolloutMode mode) {
        return new RolloutModes.Setting(mode, "operator", CHANGED_AT);
    }

    @Test
    void countsEveryKeylessRequestByItsClient() throws ProblemException {
        KeylessGate gate = gate(Map.of());

        gate.admit(request("alice", "curl/8.5.0"), response, operation, in(RolloutMode.OPTIONAL));
        gate.admit(request("alice", "curl/8.6.0"), response, operation, in(RolloutMode.DRAIN));
        assertThrows(
                ProblemException.class,
                () -> gate.admit(request(null, null), response, operation, in(RolloutMode.REQUIRED)));

        Map<KeylessTelemetry.Client, Long> counted = telemetry.snapshot().get("debit:v1");
        assertEquals(2L, counted.get(new KeylessTelemetry.Client("alice", "curl")));
        assertEquals(3L, counted.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void refusesAKeylessRequestInRequiredWith400AndSetsNoHeader() {
        ProblemException refusal = assertThrows(ProblemException.class, () -> gate(Map.of())
                .admit(request("alice", "curl/8.5.0"), response, operation, in(RolloutMode.REQUIRED)));

        assertEquals(Problem.KEY_REQUIRED, refusal.problem());
        assertEquals(
                "debit:v1 requires an Idempotency-Key header; send a new unique key (such as a UUID) per intended"
                        + " operation, and the same key on every retry of it",
                refusal.detail());
        assertEquals(List.of(), headers);
    }

    @Test
    void announcesInOptionalSinceWhenKeysAreAskedFor() throws ProblemException {
        gate(Map.of()).admit(request("alice", null), response, operation, in(RolloutMode.OPTIONAL));

        assertEquals(List.of("set Deprecation: @" + CHANGED_AT.getEpochSecond()), headers);
    }

    @Test
    void announcesTheSunsetAndTheGuideWhenConfigured() throws ProblemException {
        gate(Map.of("keyless-sunset", "2027-03-01T00:00:00Z", "keyless-link", "/keys.html"))
                .admit(request("alice", null), response, operation, in(RolloutMode.OPTIONAL));

        assertEquals(
                List.of(
                        "set Deprecation: @" + CHANGED_AT.getEpochSecond(),
                        "set Sunset: Mon, 01 Mar 2027 00:00:00 GMT",
                        "add Link: </keys.html>; rel=\"describedby\""),
                headers);
    }

    @Test
    void letsAKeylessRequestThroughSilentlyInDrain() throws ProblemException {
        gate(Map.of("keyless-sunset", "2027-03-01T00:00:00Z"))
                .admit(request("alice", null), response, operation, in(RolloutMode.DRAIN));

        assertEquals(List.of(), headers);
    }
}
