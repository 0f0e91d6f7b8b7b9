package dev.idempotency.sample.engines;

import dev.idempotency.check.Databases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import javax.sql.DataSource;
import org.apache.derby.client.BasicClientDataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Apache Derby 10.16's network server in the test JVM (started by the store check's test databases), on the port
 * the build reserved ({@code derby.port}), where WildFly's {@code DerbyDS} looks for it, started once per JVM
 * before Arquillian. Its database's lock wait timeout is the sample's {@code lock-timeout}, ten seconds: on Derby
 * that property, not the claim's query timeout, bounds a duplicate's wait (docs/engines.md, "Apache Derby").
 */
public final class DerbyExtension implements BeforeAllCallback {
    /** The sample's lock-timeout (the filter's default, PT10S). */
    private static final int LOCK_WAIT_SECONDS = 10;

    private static String url;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    static synchronized void start() throws Exception {
        if (url == null) {
            String started = Databases.derbyUrl(Integer.parseInt(System.getProperty("derby.port", "1527")));
            try (Connection connection = DriverManager.getConnection(started, "app", "app");
                    Statement statement = connection.createStatement()) {
                statement.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.waitTimeout', '"
                        + LOCK_WAIT_SECONDS + "')");
            }
            url = started;
        }
    }

    static DataSource dataSource() {
        try {
            start();
        } catch (Exception e) {
            throw new IllegalStateException("Derby's network server did not start", e);
        }
        BasicClientDataSource dataSource = new BasicClientDataSource();
        dataSource.setServerName("127.0.0.1");
        dataSource.setPortNumber(Integer.parseInt(System.getProperty("derby.port", "1527")));
        dataSource.setDatabaseName("idempotency");
        dataSource.setUser("app");
        dataSource.setPassword("app");
        return dataSource;
    }
}
