package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import jakarta.servlet.ServletContext;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Where a filter's settings come from, each in one place: its init-params, the properties file named by the
 * init-param {@value #INIT_PARAM_CONFIG_FILE}, and MicroProfile Config ({@code idempotency.<setting>}) where the
 * server has it. MicroProfile Config is reached only through {@link MicroProfileSettings}, after asking whether
 * the application can see it, so a server without it loses that source and nothing else.
 *
 * <p>Stateless.
 */
final class SettingsSources {
    /** Names a properties file in the WAR that holds the settings, such as {@code /WEB-INF/idempotency.properties}. */
    static final String INIT_PARAM_CONFIG_FILE = "config-file";

    private SettingsSources() {}

    /**
     * Every setting, by name, from its one place.
     *
     * @throws ConfigurationException if a setting is given in two places, or the named file cannot be read
     */
    static Map<String, String> read(Map<String, String> initParameters, ServletContext servletContext) {
        Map<String, String> parameters = new HashMap<>(initParameters);
        String file = parameters.remove(INIT_PARAM_CONFIG_FILE);
        Map<String, String> settings = new HashMap<>();
        Map<String, String> places = new HashMap<>();
        merge(settings, places, parameters, name -> "as an init-param");
        if (file != null) {
            merge(settings, places, readFile(servletContext, file), name -> "in '" + file + "'");
        }
        if (microProfileConfigVisible(servletContext)) {
            merge(
                    settings,
                    places,
                    MicroProfileSettings.read(servletContext.getClassLoader()),
                    name -> "in MicroProfile Config (" + MicroProfileSettings.PREFIX + name + ")");
        }
        return settings;
    }

    /** Whether MicroProfile Config names the operations, which installs the filter as the settings file does. */
    static boolean configuredByMicroProfile(ServletContext servletContext) {
        return microProfileConfigVisible(servletContext)
                && MicroProfileSettings.namesOperations(servletContext.getClassLoader());
    }

    /**
     * Whether the application can see MicroProfile Config. Without it that source is simply absent, and nothing is
     * lost that the application set: settings in MicroProfile Config need the API to be written at all.
     */
    private static boolean microProfileConfigVisible(ServletContext servletContext) {
        return ServerApis.visible(MicroProfileSettings.CONFIG_PROVIDER, servletContext.getClassLoader());
    }

    private static void merge(
            Map<String, String> settings,
            Map<String, String> places,
            Map<String, String> source,
            Function<String, String> place) {
        for (Map.Entry<String, String> setting : source.entrySet()) {
            String name = setting.getKey();
            if (settings.containsKey(name)) {
                throw new ConfigurationException("'" + name + "' is set both " + places.get(name) + " and "
                        + place.apply(name) + "; set it in one place");
            }
            settings.put(name, setting.getValue());
            places.put(name, place.apply(name));
        }
    }

    private static Map<String, String> readFile(ServletContext servletContext, String file) {
        Properties properties = new Properties();
        try (InputStream in = servletContext.getResourceAsStream(file)) {
            if (in == null) {
                throw new ConfigurationException(INIT_PARAM_CONFIG_FILE + ": no file '" + file + "' in the WAR");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new ConfigurationException(INIT_PARAM_CONFIG_FILE + ": '" + file + "' could not be read: " + e);
        }
        Map<String, String> settings = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            settings.put(name, properties.getProperty(name));
        }
        return settings;
    }
}
