package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
        List<String> dbms = new ArrayList<>();
        while (changeSet.find()) {
            Engine engine = Arrays.stream(Engine.values())
                    .filter(candidate -> candidate.liquibaseDbms().equals(changeSet.group(1)))
                    .findFirst()
                    .orElseThrow();
            assertEquals(engine.ddlResource(), changeSet.group(2));
            dbms.add(changeSet.group(1));
        }
        assertEquals(
                Arrays.stream(Engine.values()).map(Engine::liquibaseDbms).collect(Collectors.toList()),
                dbms,
                changelog);
        assertTrue(changelog.endsWith("</databaseChangeLog>\n"), changelog);
    }

    /** The change sets of the engines that came before SQL Server and Oracle, exactly as they were. */
    @Test
    void liquibaseChangeSetsOfTheFirstEnginesAreUnchanged() {
        String changelog = MigrationResources.changelog();
        for (String engine : List.of("postgresql", "mariadb", "mysql", "h2")) {
            String changeSet = "  <changeSet id=\"idempotency-1\" author=\"idempotency\" dbms=\"" + engine + "\">\n"
                    + "    <sqlFile path=\"META-INF/idempotency/" + engine + ".sql\" splitStatements=\"true\""
                    + " endDelimiter=\";\"/>\n"
                    + "  </changeSet>\n";
            assertTrue(changelog.contains(changeSet), changelog);
        }
        assertTrue(
                changelog.contains("dbms=\"mssql\">\n    <sqlFile path=\"META-INF/idempotency/sqlserver.sql\""),
                changelog);
        assertTrue(
                changelog.contains("dbms=\"oracle\">\n    <sqlFile path=\"META-INF/idempotency/oracle.sql\""),
                changelog);
    }

    @Test
    void flywayHasSqlServerAndOracleUnderTheirSettingValues() {
        assertTrue(Files.exists(CLASSES.resolve(MigrationResources.FLYWAY.formatted("sqlserver"))));
        assertTrue(Files.exists(CLASSES.resolve(MigrationResources.FLYWAY.formatted("oracle"))));
    }
}
