package dev.idempotency.check;

import java.sql.SQLException;
import java.util.Locale;
import java.util.UUID;
import org.h2.tools.Server;

/**
 * H2 2.2.224 (the version WildFly ships), user and password {@code sa}; a namespace is a schema, in upper case as
 * H2 folds unquoted names.
 *
 * <p>Thread-safe.
 */
public final class H2Config extends EngineConfig {
    private static Server tcpServer;

    private final String database;

    private H2Config(String database) {
        this.database = database;
    }

    /** A new in-memory database of its own in this JVM, kept until the JVM exits. */
    public static H2Config inMemory() {
        return new H2Config("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }

    /**
     * One in-memory database served over TCP from this JVM on {@code port} (the one the build reserved), where
     * WildFly's {@code H2DS} reaches it with the server's own H2 driver; the server starts once per JVM, on first
     * use or {@link #start()}.
     */
    public static H2Config tcpServer(int port) {
        return new H2Config("jdbc:h2:tcp://localhost:" + port + "/mem:idempotency;DB_CLOSE_DELAY=-1");
    }

    /** Starts the TCP server of a {@link #tcpServer} database, before a container connects to it. */
    @Override
    public void start() {
        startServerFor(database);
    }

    private static synchronized void startServerFor(String database) {
        if (tcpServer == null && database.startsWith("jdbc:h2:tcp:")) {
            String port = database.replaceFirst("jdbc:h2:tcp://localhost:(\\d+)/.*", "$1");
            try {
                tcpServer =
                        Server.createTcpServer("-tcpPort", port, "-ifNotExists").start();
            } catch (SQLException e) {
                throw new IllegalStateException("the H2 TCP server did not start on port " + port, e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(tcpServer::stop));
        }
    }

    @Override
    public String name() {
        return "h2";
    }

    @Override
    public String url(String namespace) {
        start();
        return database + (namespace == null ? "" : ";SCHEMA=" + namespace);
    }

    @Override
    public String user() {
        return "sa";
    }

    @Override
    public String password() {
        return "sa";
    }

    @Override
    public String createNamespace(String name) throws SQLException {
        String spelled = name.toUpperCase(Locale.ROOT);
        execute("CREATE SCHEMA " + spelled);
        return spelled;
    }

    @Override
    public String catalogQuery(String excludedTables) {
        return "SELECT TABLE_NAME || ' ' || COLUMN_NAME || ' ' || DATA_TYPE || ' ' || IS_NULLABLE"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME NOT IN "
                + excludedTables + " UNION ALL SELECT TABLE_NAME || ' index ' || INDEX_NAME"
                + " FROM INFORMATION_SCHEMA.INDEXES WHERE TABLE_SCHEMA = ? AND TABLE_NAME NOT IN "
                + excludedTables + " AND INDEX_NAME NOT LIKE 'PRIMARY_KEY_%' ORDER BY 1";
    }
}
