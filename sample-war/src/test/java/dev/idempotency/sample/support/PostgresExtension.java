package dev.idempotency.sample.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts one real PostgreSQL 18.6 per test JVM and publishes its port as the system property {@code
 * pg.port}. Register it before {@code ArquillianExtension}: Arquillian reads {@code arquillian.xml}
 * afterwards and hands the port to WildFly's datasource.
 */
public final class PostgresExtension implements BeforeAllCallback {
    /** The server's log, one line per statement; inside the data directory, where the server may write. */
    private static Path LOG;

    private static EmbeddedPostgres postgres;

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    /** Starts the server once, logging every statement; later calls return at once. */
    public static EmbeddedPostgres start() {
        return start(true);
    }

    /**
     * Starts the server once; later calls return at once. The demo and the benchmark start it without the
     * statement log, which costs the database a log line per statement.
     */
    public static synchronized EmbeddedPostgres start(boolean logStatements) {
        if (postgres == null) {
            try {
                Path dataDirectory = Files.createTempDirectory("embedded-pg-data");
                LOG = dataDirectory.resolve("log").resolve("statements.log");
                postgres = EmbeddedPostgres.builder()
                        .setDataDirectory(dataDirectory)
                        // Every statement is logged, so StatementCountIT can count what a request costs.
                        .setServerConfig("log_statement", logStatements ? "all" : "none")
                        .setServerConfig("logging_collector", "on")
                        .setServerConfig("log_filename", "statements.log")
                        .start();
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
            System.setProperty("pg.port", Integer.toString(postgres.getPort()));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException ignored) {
                    // The JVM is exiting; the data directory is temporary anyway.
                }
            }));
        }
        return postgres;
    }

    public static Path statementLog() {
        start();
        return LOG;
    }

    public static DataSource dataSource() {
        return start().getPostgresDatabase();
    }
}
