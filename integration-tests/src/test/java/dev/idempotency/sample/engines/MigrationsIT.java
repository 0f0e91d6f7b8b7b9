package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.check.EngineConfig;
import dev.idempotency.sample.support.PostgresExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The migrations the jar ships (Flyway's {@code db/idempotency/flyway/<engine>}, Liquibase's {@code
 * db/idempotency/changelog.xml}) create exactly what the plain DDL creates: the same tables, columns, types,
 * collations, nullability and indexes, each compared on a real engine in a namespace of its own, with the engine's
 * test facts and catalog query from its {@link EngineConfig}.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(MariaDbExtension.class)
@ExtendWith(H2Extension.class)
@ExtendWith(DerbyExtension.class)
class MigrationsIT {
    /** Tables the migration tools keep for themselves. */
    private static final String TOOL_TABLES = "('flyway_schema_history', 'databasechangelog', 'databasechangeloglock',"
            + " 'FLYWAY_SCHEMA_HISTORY', 'DATABASECHANGELOG', 'DATABASECHANGELOGLOCK')";

    /**
     * Engines that Flyway 13 reaches only through a database module that did not resolve from the Maven Central reachable here: Derby's
     * ({@code flyway-database-derby}). Its Flyway migration is the DDL's own text (MigrationResourcesTest), but no
     * Flyway runs it here.
     */
    static final Set<Engine> WITHOUT_FLYWAY_MODULE = EnumSet.of(Engine.DERBY);

    @ParameterizedTest
    // Galera runs MariaDB's DDL, which the MariaDB server checks.
    @EnumSource(value = Engine.class, mode = EnumSource.Mode.EXCLUDE, names = "GALERA")
    void flywayAndLiquibaseCreateWhatThePlainDdlCreates(Engine engine) throws Exception {
        EngineConfig database = engine.config();
        String suffix = Long.toString(System.nanoTime());
        String ddl = database.createNamespace("mig_ddl_" + suffix);
        String flyway = database.createNamespace("mig_flyway_" + suffix);
        String liquibase = database.createNamespace("mig_liquibase_" + suffix);

        try (Connection connection = database.connect(ddl);
                Statement statement = connection.createStatement()) {
            for (String sql : Engine.statements(Engine.resource("META-INF/idempotency/" + engine.ddl() + ".sql"))) {
                statement.execute(sql);
            }
        }
        boolean flywayRuns = !WITHOUT_FLYWAY_MODULE.contains(engine);
        if (flywayRuns) {
            var flywayConfig = Flyway.configure()
                    .dataSource(database.url(flyway), database.user(), database.password())
                    .locations("classpath:db/idempotency/flyway/" + engine.ddl());
            if (database.schemaName(flyway) != null) {
                flywayConfig.schemas(database.schemaName(flyway));
            }
            flywayConfig.load().migrate();
        }
        try (Connection connection = database.connect(liquibase)) {
            Database changelogDatabase =
                    DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            try (Liquibase changelog = new Liquibase(
                    "db/idempotency/changelog.xml", new ClassLoaderResourceAccessor(), changelogDatabase)) {
                changelog.update("");
            }
        }

        List<String> expected = shape(database, ddl);
        assertTrue(
                expected.stream().anyMatch(row -> row.toLowerCase().startsWith("request_result ")),
                expected.toString());
        if (flywayRuns) {
            assertEquals(expected, shape(database, flyway), "Flyway on " + engine);
        }
        assertEquals(expected, shape(database, liquibase), "Liquibase on " + engine);
    }

    /** Every column (name, type, collation, nullability) and every index of the namespace, sorted. */
    private static List<String> shape(EngineConfig database, String namespace) throws SQLException {
        try (Connection connection = database.connect(namespace);
                PreparedStatement query = connection.prepareStatement(database.catalogQuery(TOOL_TABLES))) {
            for (int i = 1; i <= query.getParameterMetaData().getParameterCount(); i++) {
                query.setString(i, namespace);
            }
            List<String> rows = new ArrayList<>();
            try (ResultSet row = query.executeQuery()) {
                while (row.next()) {
                    rows.add(row.getString(1));
                }
            }
            return rows;
        }
    }
}
