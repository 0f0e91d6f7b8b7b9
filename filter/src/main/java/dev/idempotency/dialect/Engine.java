package dev.idempotency.dialect;

import dev.idempotency.ConfigurationException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The database engines the filter runs on, one entry each, and how an engine is found: from the {@code database}
 * setting ({@link #dialectNamed}) or from a datasource's JDBC metadata ({@link #detect}). Each entry holds the value of
 * the {@code database} setting, how the engine is recognized from its JDBC metadata, the oldest version supported, its name in Liquibase's {@code
 * dbms} attribute, its dialect, and its DDL. The
 * shipped migrations (Flyway's {@code db/idempotency/flyway/<engine>/} and Liquibase's {@code
 * db/idempotency/changelog.xml}) are generated from this list at build time ({@code MigrationResources}).
 *
 * <p>A new engine is a dialect class, its DDL in {@code META-INF/idempotency/}, one entry here, and one store
 * contract subclass in the tests.
 */
public enum Engine {
    POSTGRESQL(
            "postgresql",
            "PostgreSQL",
            13,
            0,
            "postgresql",
            "postgresql",
            "PostgreSQL 13 or later",
            true,
            PostgreSqlDialect::new),
    MARIADB("mariadb", "MariaDB", 10, 11, "mariadb", "mariadb", "MariaDB 10.11 or later", true, MariaDbDialect::new),
    // Experimental: the MariaDB SQL and its own DDL (utf8mb4_0900_bin keys), written from MySQL's manual; no MySQL
    // can run in this build.
    MYSQL("mysql", "MySQL", 8, 4, "mysql", "mysql", "MySQL 8.4 (experimental, not tested)", false, MariaDbDialect::new),
    H2("h2", "H2", 2, 0, "h2", "h2", "H2 2.x", true, H2Dialect::new),
    // Experimental, written from the vendors' manuals: neither can run in this build. The product names are what
    // mssql-jdbc and ojdbc report; Liquibase calls them mssql and oracle.
    SQLSERVER(
            "sqlserver",
            "Microsoft SQL Server",
            16,
            0,
            "mssql",
            "sqlserver",
            "SQL Server 2022 or later (experimental, not tested)",
            false,
            SqlServerDialect::new),
    ORACLE(
            "oracle",
            "Oracle",
            23,
            0,
            "oracle",
            "oracle",
            "Oracle Database 23ai or later (experimental, not tested)",
            false,
            OracleDialect::new),
    SQLITE("sqlite", "SQLite", 3, 42, "sqlite", "sqlite", "SQLite 3.42 or later", true, SqliteDialect::new),
    DERBY("derby", "Apache Derby", 10, 16, "derby", "derby", "Apache Derby 10.16 or later", true, DerbyDialect::new);

    private final String settingValue;
    private final String productName;
    private final int minMajor;
    private final int minMinor;
    private final String liquibaseDbms;
    private final String ddl;
    private final String description;
    private final boolean tested;
    private final Function<Engine, SqlDialect> dialect;

    Engine(
            String settingValue,
            String productName,
            int minMajor,
            int minMinor,
            String liquibaseDbms,
            String ddl,
            String description,
            boolean tested,
            Function<Engine, SqlDialect> dialect) {
        this.settingValue = settingValue;
        this.productName = productName;
        this.minMajor = minMajor;
        this.minMinor = minMinor;
        this.liquibaseDbms = liquibaseDbms;
        this.ddl = ddl;
        this.description = description;
        this.tested = tested;
        this.dialect = dialect;
    }

    /** The {@code database} setting's values, in this list's order. */
    public static List<String> settingValues() {
        return Collections.unmodifiableList(
                Arrays.stream(values()).map(Engine::settingValue).collect(Collectors.toList()));
    }

    /** The engine a {@code database} setting value names. */
    public static Optional<Engine> named(String settingValue) {
        return Arrays.stream(values())
                .filter(engine -> engine.settingValue.equals(settingValue))
                .findFirst();
    }

    /** The engine whose JDBC metadata says {@code productName}, whatever its version. */
    public static Optional<Engine> ofProduct(String productName) {
        return Arrays.stream(values())
                .filter(engine -> engine.productName.equals(productName))
                .findFirst();
    }

    /**
     * The dialect for a {@code database} setting value.
     *
     * @throws ConfigurationException naming the value and the supported ones
     */
    public static SqlDialect dialectNamed(String database) {
        return named(database.trim().toLowerCase(Locale.ROOT))
                .map(Engine::dialect)
                .orElseThrow(() -> new ConfigurationException("database must be one of " + settingValues() + ", was '"
                        + database + "'; supported are " + supported()));
    }

    /**
     * The dialect of the engine behind {@code dataSource}, read from {@link DatabaseMetaData}, in the variant that
     * server needs (a MariaDB node of a Galera cluster).
     *
     * @throws ConfigurationException if the engine is not supported, or no connection could be opened
     */
    public static SqlDialect detect(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            return forProduct(
                            metaData.getDatabaseProductName(),
                            metaData.getDatabaseMajorVersion(),
                            metaData.getDatabaseMinorVersion())
                    .forServer(connection);
        } catch (SQLException e) {
            throw new ConfigurationException("could not open a connection to detect the database engine ("
                    + e.getMessage() + "); make the database reachable, or set database to one of "
                    + settingValues());
        }
    }

    /** @throws ConfigurationException naming the engine and its version if it is not supported */
    static SqlDialect forProduct(String product, int major, int minor) {
        return ofProduct(product)
                .filter(engine -> engine.supports(major, minor))
                .map(Engine::dialect)
                .orElseThrow(() -> new ConfigurationException("the database is " + product + " " + major + "." + minor
                        + ", which the idempotency filter does not support; supported are " + supported()));
    }

    /** Every engine, in words, for messages that list what is supported. */
    static String supported() {
        return String.join(
                        ", ", Arrays.stream(values()).map(Engine::description).collect(Collectors.toList()))
                + "; see docs/engines.md";
    }

    /** The value of the {@code database} setting that names this engine, such as {@code postgresql}. */
    public String settingValue() {
        return settingValue;
    }

    /** What {@link java.sql.DatabaseMetaData#getDatabaseProductName()} answers for this engine. */
    public String productName() {
        return productName;
    }

    /** Whether this version of the engine is supported. */
    public boolean supports(int major, int minor) {
        return major > minMajor || (major == minMajor && minor >= minMinor);
    }

    /**
     * The engine's name in Liquibase's {@code dbms} attribute, which is not always the {@code database} setting's
     * value ({@code mssql} for SQL Server).
     */
    public String liquibaseDbms() {
        return liquibaseDbms;
    }

    public String description() {
        return description;
    }

    /**
     * Whether this project's build runs the engine for real. An engine it cannot run is experimental: the
     * filter says so at start-up, and its users check it with the store check before they rely on it.
     */
    public boolean tested() {
        return tested;
    }

    /** The class path resource of this engine's DDL, shipped in the filter's jar. */
    public String ddlResource() {
        return "META-INF/idempotency/" + ddl + ".sql";
    }

    public SqlDialect dialect() {
        return dialect.apply(this);
    }
}
