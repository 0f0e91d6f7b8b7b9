package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The engines the container tests run on: the JNDI name of each one's datasource in WildFly, the test JVM's
 * own connection to the same database, and the DDL the filter's jar ships for it.
 */
enum Engine {
    POSTGRESQL("java:jboss/datasources/SampleDS", "postgresql", PostgresExtension::dataSource),
    MARIADB("java:jboss/datasources/MariaDS", "mariadb", MariaDbExtension::dataSource),
    H2("java:jboss/datasources/H2DS", "h2", H2Extension::dataSource);

    private final String jndiName;
    private final String ddl;
    private final Supplier<DataSource> testSide;

    Engine(String jndiName, String ddl, Supplier<DataSource> testSide) {
        this.jndiName = jndiName;
        this.ddl = ddl;
        this.testSide = testSide;
    }

    String jndiName() {
        return jndiName;
    }

    /** Creates the filter's tables from the jar's {@code META-INF/idempotency/<engine>.sql}, statement by statement. */
    void installFilterTables() throws IOException, SQLException {
        runScript("META-INF/idempotency/" + ddl + ".sql");
    }

    /** Runs a script from the test class path, statement by statement (not every driver takes several at once). */
    void runScript(String resource) throws IOException, SQLException {
        String script;
        try (InputStream in = Engine.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no " + resource + " on the class path");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection connection = testSide.get().getConnection();
                Statement statement = connection.createStatement()) {
            for (String sql : script.replaceAll("(?m)^\\s*--.*$", "").split(";\\s*\\n")) {
                if (!sql.isBlank()) {
                    statement.execute(sql);
                }
            }
        }
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
