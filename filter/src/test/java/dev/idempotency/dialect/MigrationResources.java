package dev.idempotency.dialect;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes the jar's migrations from {@link Engine}'s list at build time, so they can never differ from the DDL
 * the filter ships and checks: per engine, Flyway's {@code db/idempotency/flyway/<engine>/V1__idempotency_tables.sql}
 * (the DDL under Flyway's name) and a change set in Liquibase's {@code db/idempotency/changelog.xml}, for the
 * engine's Liquibase {@code dbms} name.
 *
 * <p>Run by the build (exec-maven-plugin, {@code process-test-classes}) with the class output directory as its
 * argument, before the jar is packaged.
 */
public final class MigrationResources {
    static final String FLYWAY = "db/idempotency/flyway/%s/V1__idempotency_tables.sql";
    static final String CHANGELOG = "db/idempotency/changelog.xml";

    private MigrationResources() {}

    public static void main(String[] arguments) throws IOException {
        write(Path.of(arguments[0]));
    }

    static void write(Path classes) throws IOException {
        for (Engine engine : Engine.values()) {
            Path flyway = classes.resolve(FLYWAY.formatted(engine.settingValue()));
            Files.createDirectories(flyway.getParent());
            Files.copy(classes.resolve(engine.ddlResource()), flyway, StandardCopyOption.REPLACE_EXISTING);
        }
        Path changelog = classes.resolve(CHANGELOG);
        Files.createDirectories(changelog.getParent());
        Files.writeString(changelog, changelog());
    }

    static String changelog() {
        StringBuilder xml = new StringBuilder(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <!-- The idempotency tables as a Liquibase changelog: include it from yours
                     (<include file="db/idempotency/changelog.xml"/>). Each change set runs the DDL this jar ships
                     for the engine Liquibase is connected to, so the changelog and META-INF/idempotency/<engine>.sql
                     can never differ. Generated at build time from the filter's engine list. -->
                <databaseChangeLog xmlns="http://www.liquibase.org/xml/ns/dbchangelog"
                                   xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                                   xsi:schemaLocation="http://www.liquibase.org/xml/ns/dbchangelog https://www.liquibase.org/xml/ns/dbchangelog/dbchangelog-4.29.xsd">
                """);
        for (Engine engine : Engine.values()) {
            xml.append(
                    """
                      <changeSet id="idempotency-1" author="idempotency" dbms="%s">
                        <sqlFile path="%s" splitStatements="true" endDelimiter=";"/>
                      </changeSet>
                    """
                            .formatted(engine.liquibaseDbms(), engine.ddlResource()));
        }
        return xml.append("</databaseChangeLog>\n").toString();
    }
}
