package dev.idempotency;

/**
 * A setting is unknown, malformed or out of range. The message names the setting, the bad value and
 * what is allowed. The filter turns it into a failed deployment, because a typo must not silently
 * weaken a guarantee.
 */
public class ConfigurationException extends IdempotencyException {
    private static final long serialVersionUID = 1L;

    public ConfigurationException(String message) {
        super(message);
    }
}
