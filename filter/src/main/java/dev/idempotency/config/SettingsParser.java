package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Turns the filter's string settings (init-params, the properties file, MicroProfile Config) into an {@link
 * IdempotencyConfig}, by the declarations in {@link Settings}. An unknown setting is an error, so a typo cannot
 * silently weaken a guarantee.
 *
 * <p>Stateless and thread-safe.
 */
public final class SettingsParser {
    /** Every setting the parser knows; the filter's own {@code config-file} init-param is handled before. */
    public static final Set<String> KNOWN_SETTINGS = Settings.names();

    private SettingsParser() {}

    /**
     * @throws ConfigurationException naming the first unknown or malformed setting
     */
    public static IdempotencyConfig parse(Map<String, String> settings) {
        return parse(settings, System::getenv);
    }

    /**
     * One setting's value, parsed and bounded as {@link #parse} does it, but without the checks that span
     * settings. For a reader that sees only some of the filter's sources, such as the OpenAPI filter, which sees
     * MicroProfile Config but not the WAR's settings file: checking {@code encrypted} against {@code
     * encryption-keys} there would refuse settings the filter accepts.
     *
     * @param text the setting's text, or {@code null} for its default
     * @throws ConfigurationException naming the setting and the malformed value
     */
    public static <T> T parseOne(Setting<T> setting, String text) {
        return text == null ? setting.defaultValue() : setting.parse(text, System::getenv);
    }

    /**
     * @param environment reads the environment variables that {@code encryption-keys} may name; the adopt command
     *     passes its own, since it checks settings away from the server whose environment holds the keys
     * @throws ConfigurationException naming the first unknown or malformed setting
     */
    public static IdempotencyConfig parse(Map<String, String> settings, UnaryOperator<String> environment) {
        Set<String> unknown = new TreeSet<>(settings.keySet());
        unknown.removeAll(KNOWN_SETTINGS);
        if (!unknown.isEmpty()) {
            throw new ConfigurationException(
                    "unknown setting(s) " + unknown + "; known settings are " + new TreeSet<>(KNOWN_SETTINGS));
        }
        Map<Setting<?>, Object> values = new HashMap<>();
        for (Setting<?> setting : Settings.ALL) {
            String text = settings.get(setting.name());
            if (text != null) {
                values.put(setting, setting.parse(text, environment));
            }
        }
        return new IdempotencyConfig(values);
    }
}
