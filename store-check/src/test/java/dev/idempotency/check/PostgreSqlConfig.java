package dev.idempotency.check;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.util.function.IntSupplier;

/**
 * PostgreSQL 18.6 from zonky's binaries (nothing installed on the machine), database {@code postgres}, user and
 * password {@code postgres}; a namespace is a schema.
 *
 * <p>Thread-safe.
 */
public final class PostgreSqlConfig extends EngineConfig {
    private static EmbeddedPostgres embedded;

    private final IntSupplier port;

    private PostgreSqlConfig(IntSupplier port) {
        this.port = port;
    }

    /** A server of its own, started once per JVM on a free port and stopped when the JVM exits. */
    public static PostgreSqlConfig embedded() {
        return new PostgreSqlConfig(PostgreSqlConfig::startEmbedded);
    }

    /**
     * A server another starter runs, such as the container tests' {@code PostgresExtension} (whose statement log
     * and restart they need); {@code port} starts it if need be and returns its port.
     */
    public static PostgreSqlConfig startedBy(IntSupplier port) {
        return new PostgreSqlConfig(port);
    }

    private static synchronized int startEmbedded() {
        if (embedded == null) {
            try {
                embedded = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    embedded.close();
                } catch (IOException e) {
                    // The JVM is exiting.
                }
            }));
        }
        return embedded.getPort();
    }

    @Override
    public String name() {
        return "postgresql";
    }

    @Override
    public String url(String namespace) {
        return "jdbc:postgresql://localhost:" + port.getAsInt() + "/postgres"
                + (namespace == null ? "" : "?currentSchema=" + namespace);
    }

    @Override
    public String user() {
        return "postgres";
    }

    @Override
    public String password() {
        return "postgres";
    }

    @Override
    public String createNamespace(String name) throws SQLException {
        execute("CREATE SCHEMA " + name);
        return name;
    }

    @Override
    public String catalogQuery(String excludedTables) {
        return "SELECT table_name || ' ' || column_name || ' ' || data_type || ' '"
                + " || coalesce(collation_name, '-') || ' ' || is_nullable FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name NOT IN " + excludedTables
                + " UNION ALL SELECT tablename || ' index ' || indexname FROM pg_indexes"
                + " WHERE schemaname = ? AND tablename NOT IN " + excludedTables + " ORDER BY 1";
    }
}
