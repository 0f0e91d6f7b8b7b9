package dev.idempotency.sample.engines;

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
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * The engines the container tests run on: the JNDI name of each one's datasource in WildFly, the test JVM's
 * own connection to the same database, the DDL the filter's jar ships for it, and how the sample moves onto it.
 * Public for {@code EngineBenchmark}, which runs the sample on several engines side by side.
 */
public enum Engine {
    POSTGRESQL("java:jboss/datasources/SampleDS", "postgresql", PostgresExtension::dataSource),
    MARIADB("java:jboss/datasources/MariaDS", "mariadb", MariaDbExtension::dataSource),
    H2("java:jboss/datasources/H2DS", "h2", H2Extension::dataSource),
    /** The tests' side reaches node 1 of the cluster; WildFly's first node uses it too. */
    GALERA("java:jboss/datasources/GaleraDS", "mariadb", GaleraExtension::firstNode),
    SQLITE(
            "java:jboss/datasources/SqliteDS",
            "sqlite",
            SqliteExtension::dataSource,
            "org.hibernate.community.dialect.SQLiteDialect"),
    /** Hibernate 6.6 (WildFly 39's) recognizes Derby itself: its core still has org.hibernate.dialect.DerbyDialect. */
    DERBY("java:jboss/datasources/DerbyDS", "derby", DerbyExtension::dataSource);

    private final String jndiName;
    private final String ddl;
    private final Supplier<DataSource> testSide;
    /**
     * The Hibernate dialect the sample's persistence unit must name on this engine, from Hibernate's community
     * dialects, or {@code null} where Hibernate recognizes the engine itself.
     */
    private final String hibernateDialect;

    Engine(String jndiName, String ddl, Supplier<DataSource> testSide) {
        this(jndiName, ddl, testSide, null);
    }

    Engine(String jndiName, String ddl, Supplier<DataSource> testSide, String hibernateDialect) {
        this.jndiName = jndiName;
        this.ddl = ddl;
        this.testSide = testSide;
        this.hibernateDialect = hibernateDialect;
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

    /** Creates the filter's tables from the jar's {@code META-INF/idempotency/<engine>.sql}, statement by statement. */
    void installFilterTables() throws IOException, SQLException {
        runScript("META-INF/idempotency/" + ddl + ".sql");
    }

    /** The base name of the engine's DDL in the jar, such as {@code mariadb}. */
    String ddl() {
        return ddl;
    }

    /** Creates the sample's {@code account} table from {@code engines/sample-<engine>.sql}, on the test side. */
    void installSampleTable() throws IOException, SQLException {
        try (Connection connection = testSide.get().getConnection()) {
            installSampleTable(connection);
        }
    }

    /**
     * Creates the sample's {@code account} table from {@code engines/sample-<engine>.sql} through {@code
     * connection}, for a database the test side does not reach, such as the SQLite file of a server of one's own.
     */
    public void installSampleTable(Connection connection) throws IOException, SQLException {
        runScript(connection, "engines/sample-" + ddl + ".sql");
    }

    /** Runs a script from the test class path, statement by statement (not every driver takes several at once). */
    void runScript(String resource) throws IOException, SQLException {
        try (Connection connection = testSide.get().getConnection()) {
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

    long count(String sql, Object... parameters) {
        try (Connection connection = testSide.get().getConnection();
                PreparedStatement query = prepare(connection, sql, parameters);
                ResultSet row = query.executeQuery()) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    void execute(String sql, Object... parameters) throws SQLException {
        try (Connection connection = testSide.get().getConnection();
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
