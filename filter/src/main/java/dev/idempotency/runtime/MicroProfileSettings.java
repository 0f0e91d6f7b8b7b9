package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.Settings;
import dev.idempotency.config.SettingsParser;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The filter's settings from MicroProfile Config, as {@code idempotency.<setting>} (for example {@code
 * idempotency.operations}, or the environment variable {@code IDEMPOTENCY_OPERATIONS}), where the server
 * provides MicroProfile Config. Loaded only after {@link SettingsSources} found the API visible, so the jar needs no
 * MicroProfile API on servers without it. Public for the OpenAPI filter, which reads the same properties while the
 * server builds the application's OpenAPI document.
 *
 * <p>Stateless.
 */
public final class MicroProfileSettings {
    public static final String PREFIX = "idempotency.";
    /** The API class whose visibility says whether the server has MicroProfile Config; a constant, so asking costs no load. */
    static final String CONFIG_PROVIDER = "org.eclipse.microprofile.config.ConfigProvider";

    private MicroProfileSettings() {}

    /**
     * Whether {@code idempotency.operations} is set, which installs the filter. Nothing else is checked: an
     * application that has {@code idempotency.*} properties of its own but does not configure the filter must
     * deploy as before.
     */
    static boolean namesOperations(ClassLoader application) {
        return config(application)
                .map(config -> config.getOptionalValue(PREFIX + Settings.OPERATIONS.name(), String.class)
                        .isPresent())
                .orElse(false);
    }

    /**
     * The settings given as {@code idempotency.*}, by setting name.
     *
     * @throws ConfigurationException naming an {@code idempotency.*} property that is no setting
     */
    public static Map<String, String> read(ClassLoader application) {
        Optional<Config> source = config(application);
        if (!source.isPresent()) {
            return Collections.emptyMap();
        }
        Config config = source.get();
        Set<String> unknown = new TreeSet<>();
        for (String property : config.getPropertyNames()) {
            if (property.startsWith(PREFIX)
                    && !SettingsParser.KNOWN_SETTINGS.contains(property.substring(PREFIX.length()))) {
                unknown.add(property);
            }
        }
        if (!unknown.isEmpty()) {
            throw new ConfigurationException(
                    "unknown MicroProfile Config propert" + (unknown.size() == 1 ? "y " : "ies ")
                            + unknown + "; the filter's settings are " + PREFIX + "<setting>, with <setting> one of "
                            + new TreeSet<>(SettingsParser.KNOWN_SETTINGS));
        }
        Map<String, String> settings = new HashMap<>();
        for (String setting : SettingsParser.KNOWN_SETTINGS) {
            config.getOptionalValue(PREFIX + setting, String.class).ifPresent(value -> settings.put(setting, value));
        }
        return settings;
    }

    /**
     * The application's MicroProfile Config, where the server has an implementation of it. GlassFish 8 makes the API
     * visible to applications with no implementation behind it, and {@code getConfig} then throws: the source is
     * absent there, as on a server without the API, and nothing the application set is lost, since no property can
     * have been set without an implementation.
     */
    private static Optional<Config> config(ClassLoader application) {
        try {
            return Optional.of(ConfigProvider.getConfig(application));
        } catch (IllegalStateException noImplementation) {
            return Optional.empty();
        }
    }
}
