package dev.idempotency.sample;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.ejb.Singleton;
import jakarta.ejb.Startup;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * Creates the tables at deployment, as a migration tool (Flyway, Liquibase) would in a real application:
 * the filter's {@code request_result} from the DDL shipped in its jar, then the sample's own tables and
 * the chapter's starting data (account 1, owned by alice, balance 1000). Every statement is idempotent.
 */
@Singleton
@Startup
@TransactionManagement(TransactionManagementType.BEAN)
public class SchemaInstaller {
    private static final long SCHEMA_LOCK = 4_242_001;

    @Resource(lookup = "java:jboss/datasources/SampleDS")
    DataSource dataSource;

    @PostConstruct
    void install() {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            // Two deployments starting at once would race on CREATE TABLE IF NOT EXISTS, which PostgreSQL
            // does not serialize (a duplicate key in pg_type); a session-level advisory lock does.
            statement.execute("SELECT pg_advisory_lock(" + SCHEMA_LOCK + ")");
            try {
                statement.execute(script("META-INF/idempotency/postgresql.sql"));
                statement.execute(script("META-INF/sample.sql"));
            } finally {
                statement.execute("SELECT pg_advisory_unlock(" + SCHEMA_LOCK + ")");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the sample's tables", e);
        }
    }

    private static String script(String resource) {
        try (InputStream in = SchemaInstaller.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
