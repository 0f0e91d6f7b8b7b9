package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.SettingsParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The demo's own settings, which no container test deploys (the tests use a configuration of their own):
 * they must parse, and {@code debit:v1} must be encrypted, as docs/tour.md shows.
 */
class SampleSettingsTest {
    @Test
    void theDemosSettingsAreValidAndEncryptDebits() throws IOException {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of("src/main/webapp/WEB-INF/idempotency.properties"))) {
            properties.load(in);
        }
        Map<String, String> settings = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> settings.put(name, properties.getProperty(name)));

        IdempotencyConfig config = SettingsParser.parse(settings);

        assertEquals(Set.of("debit:v1"), config.encryptedOperations());
    }
}
