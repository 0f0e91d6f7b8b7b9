package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.SqlDialect;
import org.junit.jupiter.api.Test;

class ExperimentalEngineTest {
    @Test
    void theStartUpWarningSaysExperimentalAndNamesTheStoreCheck() {
        String warning = FilterRuntime.experimentalEngine(SqlDialect.named("mysql"));

        assertTrue(warning.contains("MySQL, is EXPERIMENTAL"), warning);
        assertTrue(warning.contains("docs/engines.md#check-your-database"), warning);
    }
}
