package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.dialect.Engine;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The start-up line that docs/configuration.md shows is not typed: it is the one the filter logs for the sample's
 * own settings file, made by the same code, so a new setting or a changed default changes the page or fails here.
 */
class StartupLineDocumentationTest {
    private static final Path CONFIGURATION_DOC = Path.of("../docs/configuration.md");
    private static final Path SAMPLE_SETTINGS = Path.of("../sample-war/src/main/webapp/WEB-INF/idempotency.properties");

    /** Where the sample's records are on WildFly; the one part the filter learns from the running server. */
    private static final String SAMPLE_ORIGIN = FilterRuntime.dataSourceOrigin(
            "java:jboss/datasources/SampleDS",
            Engine.dialectNamed("postgresql"),
            "the JTA datasource of persistence unit 'sample' in /WEB-INF/classes/META-INF/persistence.xml");

    @Test
    void configurationPageShowsTheLineTheFilterLogsForTheSampleSettings() throws IOException {
        IdempotencyConfig config = SettingsParser.parse(sampleSettings());

        String line = FilterRuntime.startupLine("idempotency", config, SAMPLE_ORIGIN);

        String page = Files.readString(CONFIGURATION_DOC);
        assertTrue(
                page.contains("\n```\n" + line + "\n```\n"),
                "docs/configuration.md must show the start-up line exactly, in a code block of its own:\n" + line);
    }

    /** The file as the filter reads it: {@link Properties}, every name with its value. */
    private static Map<String, String> sampleSettings() throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(SAMPLE_SETTINGS, StandardCharsets.ISO_8859_1)) {
            properties.load(in);
        }
        Map<String, String> settings = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name)));
        return settings;
    }
}
