package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The migrations the build put into the jar's classes: one per engine of the list, each its engine's DDL. */
class MigrationResourcesTest {
    private static final Path CLASSES = Path.of("target/classes");

    @Test
    void flywayHasEveryEnginesDdlUnderItsOwnLocation() throws Exception {
        for (Engine engine : Engine.values()) {
            Path migration = CLASSES.resolve(MigrationResources.FLYWAY.formatted(engine.settingValue()));
            assertEquals(
                    Files.readString(CLASSES.resolve(engine.ddlResource())),
                    Files.readString(migration),
                    engine + ": " + migration);
        }
    }

    @Test
    void liquibaseHasOneChangeSetPerEngineRunningItsDdl() throws Exception {
        String changelog = Files.readString(CLASSES.resolve(MigrationResources.CHANGELOG));
        Matcher changeSet = Pattern.compile("dbms=\"([a-z0-9]+)\">\\s*<sqlFile path=\"([^\"]+)\"")
                .matcher(changelog);
        int changeSets = 0;
        while (changeSet.find()) {
            Engine engine = Engine.named(changeSet.group(1)).orElseThrow();
            assertEquals(engine.ddlResource(), changeSet.group(2));
            changeSets++;
        }
        assertEquals(Engine.values().length, changeSets, changelog);
        assertTrue(changelog.endsWith("</databaseChangeLog>\n"), changelog);
    }
}
