package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.dialect.Engine;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An engine this build cannot run: refused unless the user opts in, and then named at start-up. */
class ExperimentalEngineTest {
    @Test
    void theRefusalSaysHowToOptInAndWhatItMeans() {
        String refusal = EnginePolicy.untestedEngineRefused(Engine.dialectNamed("mysql"));

        assertTrue(refusal.contains("MySQL, is one this project's build cannot run"), refusal);
        assertTrue(refusal.contains("docs/engines.md#check-your-database"), refusal);
        assertTrue(refusal.contains("set untested-engine = allow"), refusal);
        assertTrue(refusal.contains("this project has not proven it"), refusal);
    }

    @Test
    void theSettingTakesRefuseOrAllowOnly() {
        assertEquals(false, parse(Map.of()).allowsUntestedEngine());
        assertEquals(true, parse(Map.of("untested-engine", "allow")).allowsUntestedEngine());
        assertEquals(false, parse(Map.of("untested-engine", "REFUSE")).allowsUntestedEngine());
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> parse(Map.of("untested-engine", "yes")));
        assertTrue(e.getMessage().contains("must be refuse or allow, was 'yes'"), e.getMessage());
    }

    @Test
    void theStartUpWarningSaysExperimentalAndNamesTheStoreCheck() {
        String warning = EnginePolicy.experimentalEngine(Engine.dialectNamed("mysql"));

        assertTrue(warning.contains("MySQL, is EXPERIMENTAL"), warning);
        assertTrue(warning.contains("docs/engines.md#check-your-database"), warning);
    }

    private static IdempotencyConfig parse(Map<String, String> settings) {
        Map<String, String> all = new java.util.HashMap<>(settings);
        all.put("operations", "POST /a = a:v1");
        return SettingsParser.parse(all);
    }
}
