package dev.idempotency.sample.engines;

import java.sql.SQLException;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.tools.Server;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real H2 2.x TCP server in the test JVM, on the port the build reserved ({@code h2.port}), holding one
 * in-memory database: WildFly's {@code H2DS} reaches it over TCP with the H2 driver the server ships, so the
 * test JVM's version is the same (2.2.224). Started once per JVM, before Arquillian.
 */
public final class H2Extension implements BeforeAllCallback {
    static final String DATABASE = "mem:idempotency;DB_CLOSE_DELAY=-1";
    private static Server server;

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        start();
    }

    static synchronized void start() throws SQLException {
        if (server == null) {
            server = Server.createTcpServer("-tcpPort", port(), "-ifNotExists").start();
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        }
    }

    static JdbcDataSource dataSource() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:tcp://localhost:" + port() + "/" + DATABASE);
        dataSource.setUser("sa");
        dataSource.setPassword("sa");
        return dataSource;
    }

    private static String port() {
        return System.getProperty("h2.port", "9092");
    }
}
