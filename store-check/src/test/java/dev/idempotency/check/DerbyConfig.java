package dev.idempotency.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import org.apache.derby.drda.NetworkServerControl;

/**
 * Apache Derby 10.16's network server, started in this JVM (nothing installed on the machine) and reached through
 * the client driver over TCP, as a server on the network is; database {@code idempotency} under {@code
 * target/derby}, user and password {@code app}. A namespace is a schema, in upper case as Derby folds unquoted
 * names.
 *
 * <p>The database's {@code derby.locks.waitTimeout} is set when the server starts: on Derby that property, not a
 * JDBC query timeout, bounds a duplicate's wait (docs/engines.md, "Apache Derby"), and the store contract holds a
 * winner at most 60 s while a duplicate is refused, so it must be well under that.
 *
 * <p>Thread-safe.
 */
public final class DerbyConfig extends EngineConfig {
    /** The database the started server holds, where WildFly's {@code DerbyDS} looks. */
    public static final String DATABASE = "idempotency";

    private static NetworkServerControl server;
    private static int serverPort;

    private final int port;
    private final Duration lockWait;

    private DerbyConfig(int port, Duration lockWait) {
        this.port = port;
        this.lockWait = lockWait;
    }

    /**
     * A server started once per JVM on {@code port} (the one the build reserved for WildFly's datasource), unless
     * one is running already, with the database's lock wait timeout at {@code lockWait}; shut down when the JVM
     * exits.
     */
    public static DerbyConfig startedOn(int port, Duration lockWait) {
        return new DerbyConfig(port, lockWait);
    }

    /** The same server, on a free port if it is not running yet. */
    public static DerbyConfig startedOnAnyPort(Duration lockWait) {
        return new DerbyConfig(0, lockWait);
    }

    /** The lock wait timeout this descriptor gives its database. */
    public Duration lockWait() {
        return lockWait;
    }

    @Override
    public void start() {
        startServer(port, lockWait);
    }

    private static synchronized int startServer(int port, Duration lockWait) {
        if (server == null) {
            int chosen = port == 0 ? freePort() : port;
            try {
                Path home = Files.createDirectories(
                                Path.of("target", "derby", UUID.randomUUID().toString()))
                        .toAbsolutePath();
                System.setProperty("derby.system.home", home.toString());
                NetworkServerControl started = new NetworkServerControl(InetAddress.getLoopbackAddress(), chosen);
                started.start(null);
                awaitListening(started);
                server = started;
                serverPort = chosen;
            } catch (Exception e) {
                throw new IllegalStateException("Derby's network server did not start on port " + chosen, e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    server.shutdown();
                } catch (Exception e) {
                    // The JVM is exiting; the databases are under target/.
                }
            }));
            // A database property, which the filter reads at start-up (SqlDialect.lockWaitBound), not a system one.
            try (Connection connection =
                            DriverManager.getConnection(baseUrl(serverPort) + ";create=true", "app", "app");
                    Statement statement = connection.createStatement()) {
                statement.execute("CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.waitTimeout', '"
                        + lockWait.toSeconds() + "')");
            } catch (SQLException e) {
                throw new IllegalStateException("Derby started without the database " + DATABASE, e);
            }
        }
        return serverPort;
    }

    /** The network server listens from a thread of its own: a ping answers once it does. */
    private static void awaitListening(NetworkServerControl started) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                started.ping();
                return;
            } catch (Exception notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(100);
            }
        }
    }

    private static int freePort() {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String baseUrl(int port) {
        return "jdbc:derby://" + InetAddress.getLoopbackAddress().getHostAddress() + ":" + port + "/" + DATABASE;
    }

    @Override
    public String name() {
        return "derby";
    }

    /**
     * Derby's URL names no schema, but a connection starts in the schema named after its user, and a user named
     * in the URL wins over the one given beside it: a namespace's URL names it as the user (Derby without
     * authentication, as here, takes any user).
     */
    @Override
    public String url(String namespace) {
        String url = baseUrl(startServer(port, lockWait));
        return namespace == null ? url : url + ";user=" + namespace;
    }

    @Override
    public String user() {
        return "app";
    }

    @Override
    public String password() {
        return "app";
    }

    @Override
    public String createNamespace(String name) throws SQLException {
        String spelled = name.toUpperCase(Locale.ROOT);
        execute("CREATE SCHEMA " + spelled);
        return spelled;
    }

    /**
     * From Derby's own catalog: a column's type (with its nullability) is a Java object there, which a cast prints;
     * the indexes behind constraints have names Derby makes up, so an index is its descriptor (unique or not, the
     * column positions), with its name only where the DDL named it; and the DDL's functions.
     */
    @Override
    public String catalogQuery(String excludedTables) {
        String inSchema = " JOIN SYS.SYSTABLES t ON %s = t.TABLEID JOIN SYS.SYSSCHEMAS s ON t.SCHEMAID = s.SCHEMAID"
                + " WHERE s.SCHEMANAME = ? AND t.TABLENAME NOT IN " + excludedTables;
        return "SELECT LOWER(t.TABLENAME) || ' ' || LOWER(c.COLUMNNAME) || ' ' || CAST(c.COLUMNDATATYPE AS"
                + " VARCHAR(200)) FROM SYS.SYSCOLUMNS c" + inSchema.formatted("c.REFERENCEID")
                + " UNION ALL SELECT LOWER(t.TABLENAME) || ' index ' || CAST(g.DESCRIPTOR AS VARCHAR(200))"
                + " || CASE WHEN EXISTS (SELECT 1 FROM SYS.SYSKEYS k WHERE k.CONGLOMERATEID = g.CONGLOMERATEID)"
                + " THEN '' ELSE ' ' || LOWER(g.CONGLOMERATENAME) END FROM SYS.SYSCONGLOMERATES g"
                + inSchema.formatted("g.TABLEID") + " AND g.ISINDEX"
                + " UNION ALL SELECT 'function ' || LOWER(f.ALIAS) FROM SYS.SYSALIASES f JOIN SYS.SYSSCHEMAS s"
                + " ON f.SCHEMAID = s.SCHEMAID WHERE s.SCHEMANAME = ? AND f.ALIASTYPE = 'F' ORDER BY 1";
    }
}
