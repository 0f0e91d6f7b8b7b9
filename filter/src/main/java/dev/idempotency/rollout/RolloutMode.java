package dev.idempotency.rollout;

import dev.idempotency.ConfigurationException;
import java.util.Arrays;
import java.util.Locale;

/**
 * How far an operation's protection has been rolled out. The path is expand ({@link #OPTIONAL}), contract
 * ({@link #REQUIRED}), and, when something goes wrong, back through {@link #OPTIONAL} or {@link #DRAIN}.
 */
public enum RolloutMode {
    /** Not protected at all: the filter steps aside, stored records are neither honoured nor written. */
    OFF,
    /**
     * Keyed requests get the full guarantee; keyless ones run unprotected and are told, with {@code
     * Deprecation}, {@code Sunset} and {@code Link} headers, that keys will become mandatory.
     */
    OPTIONAL,
    /** Keyless requests get 400 {@code idempotency-key-required} before any effect. */
    REQUIRED,
    /**
     * The rollback path: stored records are still honoured (replay or 422), new keys are no longer
     * recorded, and keyless requests run. Keep it until the retention window has closed; then OFF is safe.
     */
    DRAIN;

    /** @throws ConfigurationException naming the value and the allowed modes */
    public static RolloutMode parse(String setting, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(
                    setting + " must be one of " + Arrays.toString(values()) + ", was '" + value + "'");
        }
    }
}
