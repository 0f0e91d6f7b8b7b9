package dev.idempotency.sample.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
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
 * collations, nullability and indexes, each compared on a real engine in a namespace of its own.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(MariaDbExtension.class)
@ExtendWith(H2Extension.class)
@ExtendWith(DerbyExtension.class)
class MigrationsIT {
    /** Tables the migration tools keep for themselves. */
    private static final String TOOL_TABLES = "('flyway_schema_history', 'databasechangelog', 'databasechangeloglock',"
            + " 'FLYWAY_SCHEMA_HISTORY', 'DATABASECHANGELOG', 'DATABASECHANGELOGLOCK')";

    @ParameterizedTest
    // Galera runs MariaDB's DDL, which the MariaDB server checks.
    @EnumSource(value = Engine.class, mode = EnumSource.Mode.EXCLUDE, names = "GALERA")
    void flywayAndLiquibaseCreateWhatThePlainDdlCreates(Engine engine) throws Exception {
        String suffix = Long.toString(System.nanoTime());
        String ddl = create(engine, "mig_ddl_" + suffix);
        String flyway = create(engine, "mig_flyway_" + suffix);
        String liquibase = create(engine, "mig_liquibase_" + suffix);

        try (Connection connection = connect(engine, ddl);
                Statement statement = connection.createStatement()) {
            for (String sql : Engine.statements(Engine.resource("META-INF/idempotency/" + engine.ddl() + ".sql"))) {
                statement.execute(sql);
            }
        }
        // Flyway 13 reaches Derby only through a database module that does not resolve here: its migration is
        // the same file as the DDL (MigrationResourcesTest), but no Flyway runs it on Derby.
        if (engine != Engine.DERBY) {
            var flywayConfig = Flyway.configure()
                    .dataSource(url(engine, flyway), user(engine), password(engine))
                    .locations("classpath:db/idempotency/flyway/" + engine.ddl());
            if (engine != Engine.SQLITE) {
                flywayConfig.schemas(flyway);
            }
            flywayConfig.load().migrate();
        }
        try (Connection connection = connect(engine, liquibase)) {
            Database database =
                    DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
            try (Liquibase changelog =
                    new Liquibase("db/idempotency/changelog.xml", new ClassLoaderResourceAccessor(), database)) {
                changelog.update("");
            }
        }

        List<String> expected = shape(engine, ddl);
        assertTrue(
                expected.stream().anyMatch(row -> row.toLowerCase().startsWith("request_result ")),
                expected.toString());
        if (engine != Engine.DERBY) {
            assertEquals(expected, shape(engine, flyway), "Flyway on " + engine);
        }
        assertEquals(expected, shape(engine, liquibase), "Liquibase on " + engine);
    }

    /**
     * Creates a namespace of its own (a schema, a database on MariaDB, a file on SQLite); returns its name as the
     * engine spells it.
     */
    private static String create(Engine engine, String name) throws Exception {
        if (engine == Engine.SQLITE) {
            return Files.createDirectories(Path.of("target", "sqlite-migrations"))
                    .resolve(name + ".db")
                    .toAbsolutePath()
                    .toString();
        }
        String spelled = engine == Engine.H2 || engine == Engine.DERBY ? name.toUpperCase() : name;
        try (Connection connection = connect(engine, null);
                Statement statement = connection.createStatement()) {
            statement.execute((engine == Engine.MARIADB ? "CREATE DATABASE " : "CREATE SCHEMA ") + spelled);
        }
        return spelled;
    }

    /** Every column (name, type, collation, nullability) and every index of the namespace, sorted. */
    private static List<String> shape(Engine engine, String namespace) throws SQLException {
        if (engine == Engine.DERBY) {
            return derbyShape(namespace);
        }
        String columns =
                switch (engine) {
                    case POSTGRESQL -> "SELECT table_name || ' ' || column_name || ' ' || data_type || ' '"
                            + " || coalesce(collation_name, '-') || ' ' || is_nullable FROM information_schema.columns"
                            + " WHERE table_schema = ? AND table_name NOT IN " + TOOL_TABLES
                            + " UNION ALL SELECT tablename || ' index ' || indexname FROM pg_indexes"
                            + " WHERE schemaname = ? AND tablename NOT IN " + TOOL_TABLES + " ORDER BY 1";
                    case MARIADB, GALERA -> "SELECT CONCAT_WS(' ', table_name, column_name, column_type,"
                            + " COALESCE(collation_name, '-'), is_nullable) FROM information_schema.columns"
                            + " WHERE table_schema = ? AND table_name NOT IN " + TOOL_TABLES
                            + " UNION ALL SELECT DISTINCT CONCAT_WS(' ', table_name, 'index', index_name)"
                            + " FROM information_schema.statistics WHERE table_schema = ? AND table_name NOT IN "
                            + TOOL_TABLES + " ORDER BY 1";
                    case H2 -> "SELECT TABLE_NAME || ' ' || COLUMN_NAME || ' ' || DATA_TYPE || ' ' || IS_NULLABLE"
                            + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME NOT IN "
                            + TOOL_TABLES + " UNION ALL SELECT TABLE_NAME || ' index ' || INDEX_NAME"
                            + " FROM INFORMATION_SCHEMA.INDEXES WHERE TABLE_SCHEMA = ? AND TABLE_NAME NOT IN "
                            + TOOL_TABLES + " AND INDEX_NAME NOT LIKE 'PRIMARY_KEY_%' ORDER BY 1";
                        // The namespace is the file connected to; STRICT tables keep the declared types.
                    case SQLITE -> "SELECT m.name || ' ' || c.name || ' ' || c.type || ' ' || c.\"notnull\""
                            + " FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table'"
                            + " AND m.name NOT IN " + TOOL_TABLES + " UNION ALL SELECT tbl_name || ' index ' || name"
                            + " FROM sqlite_master WHERE type = 'index' AND tbl_name NOT IN " + TOOL_TABLES
                            + " ORDER BY 1";
                    case DERBY -> throw new IllegalStateException("read from the JDBC metadata");
                };
        try (Connection connection = connect(engine, engine == Engine.SQLITE ? namespace : null);
                PreparedStatement query = connection.prepareStatement(columns)) {
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

    /**
     * Derby's catalog keeps a column's type as a Java object that SQL cannot print: the shape comes from the JDBC
     * metadata instead, with the same facts (type, length, nullability, and every index).
     */
    private static List<String> derbyShape(String schema) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = connect(Engine.DERBY, null)) {
            var metaData = connection.getMetaData();
            try (ResultSet column = metaData.getColumns(null, schema, "%", "%")) {
                while (column.next()) {
                    if (!TOOL_TABLES.contains("'" + column.getString("TABLE_NAME") + "'")) {
                        rows.add(column.getString("TABLE_NAME") + " " + column.getString("COLUMN_NAME") + " "
                                + column.getString("TYPE_NAME") + "(" + column.getInt("COLUMN_SIZE") + ") "
                                + column.getString("IS_NULLABLE"));
                    }
                }
            }
            try (ResultSet table = metaData.getTables(null, schema, "%", new String[] {"TABLE"})) {
                List<String> tables = new ArrayList<>();
                while (table.next()) {
                    tables.add(table.getString("TABLE_NAME"));
                }
                for (String name : tables) {
                    if (TOOL_TABLES.contains("'" + name + "'")) {
                        continue;
                    }
                    try (ResultSet index = metaData.getIndexInfo(null, schema, name, false, false)) {
                        while (index.next()) {
                            // Derby names the indexes behind constraints itself (SQL…): the columns are the fact.
                            rows.add(name + " index " + index.getString("COLUMN_NAME") + " "
                                    + index.getShort("ORDINAL_POSITION") + " unique="
                                    + !index.getBoolean("NON_UNIQUE"));
                        }
                    }
                }
            }
            try (ResultSet function = metaData.getFunctions(null, schema, "%")) {
                while (function.next()) {
                    rows.add("function " + function.getString("FUNCTION_NAME"));
                }
            }
        }
        rows.sort(null);
        return rows;
    }

    private static Connection connect(Engine engine, String namespace) throws SQLException {
        if (engine == Engine.DERBY) {
            // The client's URL names no schema: the connection is put into it.
            Connection connection = DriverManager.getConnection(url(engine, null), user(engine), password(engine));
            if (namespace != null) {
                connection.setSchema(namespace);
            }
            return connection;
        }
        return DriverManager.getConnection(
                namespace == null ? url(engine, null) : url(engine, namespace), user(engine), password(engine));
    }

    private static String url(Engine engine, String namespace) {
        return switch (engine) {
            case POSTGRESQL -> "jdbc:postgresql://localhost:" + System.getProperty("pg.port") + "/postgres"
                    + (namespace == null ? "" : "?currentSchema=" + namespace);
            case MARIADB -> "jdbc:mariadb://localhost:" + System.getProperty("maria.port", "3306") + "/"
                    + (namespace == null ? MariaDbExtension.DATABASE : namespace);
            case H2 -> "jdbc:h2:tcp://localhost:" + System.getProperty("h2.port", "9092") + "/" + H2Extension.DATABASE
                    + (namespace == null ? "" : ";SCHEMA=" + namespace);
            case SQLITE -> "jdbc:sqlite:" + namespace;
            case DERBY -> "jdbc:derby://127.0.0.1:" + System.getProperty("derby.port", "1527") + "/idempotency";
            case GALERA -> throw new IllegalArgumentException("the migrations are checked on one MariaDB server");
        };
    }

    private static String user(Engine engine) {
        return switch (engine) {
            case POSTGRESQL -> "postgres";
            case MARIADB, GALERA -> "root";
            case H2 -> "sa";
            case SQLITE -> null;
            case DERBY -> "app";
        };
    }

    private static String password(Engine engine) {
        return switch (engine) {
            case POSTGRESQL -> "postgres";
            case MARIADB, GALERA -> "";
            case H2 -> "sa";
            case SQLITE -> null;
            case DERBY -> "app";
        };
    }
}
