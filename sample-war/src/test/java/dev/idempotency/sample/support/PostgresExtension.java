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
    /** Whether commits reach the disk; off for the tests, where only correctness is measured. */
    private static boolean durable;

    /** The server's log, one line per statement; inside the data directory, where the server may write. */
    private static Path LOG;

    private static EmbeddedPostgres postgres;
    private static Path dataDirectory;
    private static boolean statementsLogged;
    private static boolean statementsCounted;

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
                dataDirectory = Files.createTempDirectory("embedded-pg-data");
                LOG = dataDirectory.resolve("log").resolve("statements.log");
                statementsLogged = logStatements;
                postgres = builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
            System.setProperty("pg.port", Integer.toString(postgres.getPort()));
            Runtime.getRuntime().addShutdownHook(new Thread(PostgresExtension::stopAndDeleteData));
        }
        return postgres;
    }

    /**
     * Starts the server for the load benchmark: without the statement log, durable unless asked not to be, and
     * with {@code pg_stat_statements} loaded, which counts the statements a benchmark's requests run. The
     * embedded server's own defaults turn durability off, which no payment endpoint would run with.
     */
    public static synchronized EmbeddedPostgres startForBenchmark(boolean durable) {
        PostgresExtension.durable = durable;
        statementsCounted = true;
        return start(false);
    }

    /**
     * Stops the server and starts it again on the same port and data directory, as an operator's restart
     * would: sessions in flight are terminated, committed data stays.
     */
    public static synchronized void restart() throws IOException {
        int port = postgres.getPort();
        postgres.close();
        postgres = builder().setPort(port).start();
    }

    private static EmbeddedPostgres.Builder builder() {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                // Kept across a restart; deleted when the JVM exits.
                .setCleanDataDirectory(false)
                // Every statement is logged, so StatementCountIT can count what a request costs.
                .setServerConfig("log_statement", statementsLogged ? "all" : "none")
                .setServerConfig("logging_collector", "on")
                .setServerConfig("log_filename", "statements.log")
                .setServerConfig("fsync", durable ? "on" : "off")
                .setServerConfig("synchronous_commit", durable ? "on" : "off")
                .setServerConfig("full_page_writes", durable ? "on" : "off");
        if (statementsCounted) {
            builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
        }
        return builder;
    }

    private static synchronized void stopAndDeleteData() {
        try {
            postgres.close();
            try (var paths = Files.walk(dataDirectory)) {
                paths.sorted(java.util.Comparator.reverseOrder())
                        .forEach(path -> path.toFile().delete());
            }
        } catch (IOException ignored) {
            // The JVM is exiting; a temporary directory may stay behind.
        }
    }

    public static Path statementLog() {
        start();
        return LOG;
    }

    public static DataSource dataSource() {
        return start().getPostgresDatabase();
    }
}
