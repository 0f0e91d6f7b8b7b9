package dev.idempotency.sample.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts one real PostgreSQL 18.6 per test JVM and publishes its port as the system property {@code
 * pg.port}. Register it before {@code ArquillianExtension}: Arquillian reads {@code arquillian.xml}
 * afterwards and hands the port to WildFly's datasource.
 */
public final class PostgresExtension implements BeforeAllCallback {
    private static EmbeddedPostgres postgres;

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    /** Starts the server once; later calls return at once. */
    public static synchronized EmbeddedPostgres start() {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
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

    public static DataSource dataSource() {
        return start().getPostgresDatabase();
    }
}
