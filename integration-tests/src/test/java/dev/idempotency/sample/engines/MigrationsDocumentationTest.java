package dev.idempotency.sample.engines;

import dev.idempotency.build.GeneratedSection;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * docs/tested.md names the engines {@link MigrationsIT} runs on as its {@code @EnumSource} selects them, and the
 * tools it runs on each.
 */
class MigrationsDocumentationTest {
    @Test
    void testedDocsNameTheEnginesMigrationsItRuns() throws Exception {
        EnumSource source = MigrationsIT.class
                .getDeclaredMethod("flywayAndLiquibaseCreateWhatThePlainDdlCreates", Engine.class)
                .getAnnotation(EnumSource.class);
        List<String> named = Arrays.asList(source.names());
        List<Engine> engines = Arrays.stream(Engine.values())
                .filter(engine -> switch (source.mode()) {
                    case EXCLUDE -> !named.contains(engine.name());
                    case INCLUDE -> named.isEmpty() || named.contains(engine.name());
                    default -> throw new AssertionError("MigrationsIT selects engines by " + source.mode());
                })
                .collect(Collectors.toList());
        String text = "`MigrationsIT` runs on " + engines.size() + " engines: "
                + engines.stream()
                        .map(engine -> productName(engine)
                                + (MigrationsIT.WITHOUT_FLYWAY_MODULE.contains(engine)
                                        ? " (Liquibase only: Flyway's database module for it did not resolve here)"
                                        : " (Flyway and Liquibase)"))
                        .collect(Collectors.joining(", "))
                + ".";
        GeneratedSection.check(Path.of("../docs/tested.md"), "migrations-engines", text);
    }

    private static String productName(Engine engine) {
        return dev.idempotency.dialect.Engine.named(engine.ddl())
                .map(dev.idempotency.dialect.Engine::productName)
                .orElseThrow(() -> new AssertionError("no filter engine named " + engine.ddl()));
    }
}
