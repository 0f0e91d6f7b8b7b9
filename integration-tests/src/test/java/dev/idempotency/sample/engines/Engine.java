package dev.idempotency.sample.engines;

import dev.idempotency.check.DerbyConfig;
import dev.idempotency.check.EngineConfig;
import dev.idempotency.check.H2Config;
import dev.idempotency.check.MariaDbConfig;
import dev.idempotency.check.PostgreSqlConfig;
import dev.idempotency.check.SqliteConfig;
import dev.idempotency.sample.SchemaInstaller;
import dev.idempotency.sample.support.PostgresExtension;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The engines the container tests run on: the JNDI name of each one's datasource in WildFly, the test JVM's
 * own facts of the same database (its {@link EngineConfig}, shared with the store check's tests: URL, user,
 * password, how it starts, its catalog), the DDL the filter's jar ships for it, and how the sample moves onto it.
 * Public for {@code EngineBenchmark}, which runs the sample on several engines side by side.
 */
public enum Engine {
    /** The PostgreSQL that {@link PostgresExtension} starts, on the port WildFly's datasources read. */
    POSTGRESQL("java:jboss/datasources/SampleDS", PostgreSqlConfig.startedBy(() -> PostgresExtension.start()
            .getPort())),
    /** On the port the build reserved ({@code maria.port}), where WildFly's {@code MariaDS} looks for it. */
    MARIADB("java:jboss/datasources/MariaDS", MariaDbConfig.startedOn(Integer.getInteger("maria.port", 3306))),
    /** Served over TCP from the test JVM on {@code h2.port} to WildFly's {@code H2DS}. */
    H2("java:jboss/datasources/H2DS", H2Config.tcpServer(Integer.getInteger("h2.port", 9092))),
    /** The tests' side reaches node 1 of the cluster; WildFly's first node uses it too. */
    GALERA("java:jboss/datasources/GaleraDS", MariaDbConfig.startedBy("127.0.0.1", () -> GaleraExtension.cluster()
            .sqlPort(1))),
    /** The file WildFly's {@code SqliteDS} writes, in the server's data directory. */
    SQLITE(
            "java:jboss/datasources/SqliteDS",
            SqliteConfig.inFile(
                    () -> Path.of(System.getProperty("jboss.home"), "standalone", "data", "idempotency-sqlite.db")),
            "org.hibernate.community.dialect.SQLiteDialect"),
    /**
     * On the port the build reserved ({@code derby.port}), where WildFly's {@code DerbyDS} looks for it, with the
     * sample's {@code lock-timeout} (the filter's default, ten seconds) as the database's lock wait timeout. Hibernate
     * 6.6 (WildFly 39's) recognizes Derby itself: its core still has {@code org.hibernate.dialect.DerbyDialect}.
     */
    DERBY(
            "java:jboss/datasources/DerbyDS",
            DerbyConfig.startedOn(Integer.getInteger("derby.port", 1527), Duration.ofSeconds(10)));

    private final String jndiName;
    private final EngineConfig config;
    /**
     * The Hibernate dialect the sample's persistence unit must name on this engine, from Hibernate's community
     * dialects, or {@code null} where Hibernate recognizes the engine itself.
     */
    private final String hibernateDialect;

    Engine(String jndiName, EngineConfig config) {
        this(jndiName, config, null);
    }

    Engine(String jndiName, EngineConfig config, String hibernateDialect) {
        this.jndiName = jndiName;
        this.config = config;
        this.hibernateDialect = hibernateDialect;
    }

    /** The test JVM's facts of this engine's database. */
    public EngineConfig config() {
        return config;
    }

    String jndiName() {
        return jndiName;
    }

    /**
     * The sample's archive moved onto this engine: its persistence unit on this engine's datasource, naming
     * Hibernate's community dialect where Hibernate needs one, and without its JMS consumers (they stay with the
     * PostgreSQL deployment) or {@link SchemaInstaller} (it creates PostgreSQL's tables).
     */
    public WebArchive retargetSample(WebArchive sample) throws IOException {
        String persistence = Files.readString(Path.of(System.getProperty("sample.classes"), "META-INF/persistence.xml"))
                .replace("java:jboss/datasources/SampleDS", jndiName);
        if (hibernateDialect != null) {
            persistence = persistence.replace(
                    "<properties>",
                    "<properties>\n      <property name=\"hibernate.dialect\" value=\"" + hibernateDialect + "\"/>");
            sample.addAsLibrary(new File(System.getProperty("hibernate.community.jar")));
        }
        sample.delete("/WEB-INF/classes/dev/idempotency/sample/messaging");
        sample.deleteClass(SchemaInstaller.class);
        return sample.addAsResource(new StringAsset(persistence), "META-INF/persistence.xml");
    }

    /**
     * Creates the filter's tables from the jar's {@code META-INF/idempotency/<engine>.sql}, statement by statement.
     * Every engine's script but Derby's may run again ({@code IF NOT EXISTS}); Derby has no such clause, so its
     * script runs only on a database without {@code request_result}: Derby's test classes share one database.
     */
    void installFilterTables() throws IOException, SQLException {
        try (Connection connection = config.connect()) {
            if (this == DERBY && hasTable(connection, "REQUEST_RESULT")) {
                return;
            }
            runScript(connection, "META-INF/idempotency/" + ddl() + ".sql");
        }
    }

    private static boolean hasTable(Connection connection, String name) throws SQLException {
        try (ResultSet tables = connection.getMetaData().getTables(null, null, name, null)) {
            return tables.next();
        }
    }

    /** The base name of the engine's DDL in the jar, such as {@code mariadb}. */
    String ddl() {
        return config.name();
    }

    /** Creates the sample's {@code account} table from {@code engines/sample-<engine>.sql}, on the test side. */
    void installSampleTable() throws IOException, SQLException {
        try (Connection connection = config.connect()) {
            installSampleTable(connection);
        }
    }

    /**
     * Creates the sample's {@code account} table from {@code engines/sample-<engine>.sql} through {@code
     * connection}, for a database the test side does not reach, such as the SQLite file of a server of one's own.
     */
    public void installSampleTable(Connection connection) throws IOException, SQLException {
        runScript(connection, "engines/sample-" + ddl() + ".sql");
    }

    /** Runs a script from the test class path, statement by statement (not every driver takes several at once). */
    void runScript(String resource) throws IOException, SQLException {
        try (Connection connection = config.connect()) {
            runScript(connection, resource);
        }
    }

    private static void runScript(Connection connection, String resource) throws IOException, SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements(resource(resource))) {
                statement.execute(sql);
            }
        }
    }

    static String resource(String name) throws IOException {
        try (InputStream in = Engine.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no " + name + " on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The statements of a script: comment lines dropped, split at a semicolon that ends a line. */
    static List<String> statements(String script) {
        return Arrays.stream(script.replaceAll("(?m)^\\s*--.*$", "").split(";\\s*\\n"))
                .filter(sql -> !sql.isBlank())
                .toList();
    }

    /**
     * What the filter's time columns hold for {@code time}: milliseconds since the epoch on Derby, whose DDL keeps
     * no time zones; a timestamp elsewhere.
     */
    Object storedTime(Instant time) {
        return this == DERBY ? time.toEpochMilli() : Timestamp.from(time);
    }

    long count(String sql, Object... parameters) {
        try (Connection connection = config.connect();
                PreparedStatement query = prepare(connection, sql, parameters);
                ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    void execute(String sql, Object... parameters) throws SQLException {
        try (Connection connection = config.connect();
                PreparedStatement update = prepare(connection, sql, parameters)) {
            update.executeUpdate();
        }
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
        return statement;
    }
}
