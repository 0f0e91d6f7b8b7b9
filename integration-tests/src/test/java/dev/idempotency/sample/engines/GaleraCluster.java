package dev.idempotency.sample.engines;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A real three-node MariaDB Galera cluster on 127.0.0.1, from the machine's Debian packages ({@code
 * mariadb-server}, which brings {@code galera-4} and {@code rsync}), started once per test JVM and removed when it
 * exits. Node 1 bootstraps the cluster; nodes 2 and 3 join it with a full state transfer (rsync). Each node's SQL
 * port comes from {@code galera.port.<n>}, which the build reserves so that WildFly's {@code GaleraDS} can name it
 * at boot; the cluster's own ports are picked free at start.
 *
 * <p>As root, the nodes run as the {@code mysql} user: Galera's rsync transfer fails for root. Nothing is
 * installed here: {@link #missing()} says what the machine lacks, and the suites that need the cluster do not run
 * without it.
 */
final class GaleraCluster {
    static final int NODES = 3;

    private static final Path SERVER = Path.of("/usr/sbin/mariadbd");
    private static final Path INSTALL_DB = Path.of("/usr/bin/mariadb-install-db");
    private static final Path PROVIDER = Path.of("/usr/lib/galera/libgalera_smm.so");
    private static final Path RSYNC = Path.of("/usr/bin/rsync");
    private static final Path MYSQL_HOME = Path.of("/var/lib/mysql");
    private static final long START_MILLIS = 120_000;

    private static GaleraCluster running;

    private final Path home;
    private final int[] sqlPorts = new int[NODES];
    private final int[] groupPorts = new int[NODES];
    private final Process[] nodes = new Process[NODES];

    private GaleraCluster(Path home) {
        this.home = home;
    }

    /**
     * What this machine lacks to run the cluster, in words for the build's log, or empty if it has everything.
     */
    static Optional<String> missing() {
        List<String> absent = new ArrayList<>();
        for (Path needed : List.of(SERVER, INSTALL_DB, PROVIDER, RSYNC)) {
            if (!Files.isExecutable(needed) && !Files.isRegularFile(needed)) {
                absent.add(needed.toString());
            }
        }
        if (isRoot() && !Files.isDirectory(MYSQL_HOME)) {
            absent.add("the mysql user (running as root)");
        }
        return absent.isEmpty()
                ? Optional.empty()
                : Optional.of("missing " + String.join(", ", absent) + "; install the Debian packages mariadb-server"
                        + " galera-4 rsync (.ci/run does, as root)");
    }

    /** The cluster, started on first use: three nodes, synced, with the database {@code idempotency}. */
    static synchronized GaleraCluster start() throws Exception {
        if (running == null) {
            GaleraCluster cluster = new GaleraCluster(Files.createTempDirectory("idempotency-galera"));
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::stopAndDelete));
            cluster.bootstrap();
            running = cluster;
        }
        return running;
    }

    /** A connection source on node {@code node} (1 to 3), database {@code idempotency}, user root. */
    DataSource node(int node) {
        return dataSource(node, "idempotency");
    }

    /** The node's server itself, before the database exists. */
    private DataSource server(int node) {
        return dataSource(node, "");
    }

    private DataSource dataSource(int node, String database) {
        try {
            MariaDbDataSource dataSource = new MariaDbDataSource(
                    "jdbc:mariadb://127.0.0.1:" + sqlPorts[node - 1] + "/" + database + "?connectTimeout=5000");
            dataSource.setUser("root");
            return dataSource;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The SQL port of node {@code node}, which a WildFly datasource names. */
    int sqlPort(int node) {
        return sqlPorts[node - 1];
    }

    /** Kills node {@code node} the way a crash does ({@code kill -9}): no shutdown, no goodbye to the cluster. */
    void kill(int node) throws InterruptedException {
        Process process = nodes[node - 1];
        process.destroyForcibly();
        process.waitFor();
    }

    /**
     * Cuts node {@code node} off from the others ({@code gmcast.isolate}), or lets it back in. Cut off, it is a
     * one-node non-primary component, which refuses every statement; back in, it catches up before this returns.
     */
    void isolate(int node, boolean isolated) throws Exception {
        execute(node, "SET GLOBAL wsrep_provider_options = 'gmcast.isolate=" + (isolated ? 1 : 0) + "'");
        long deadline = System.currentTimeMillis() + START_MILLIS;
        while (!status(node, "wsrep_cluster_status").equals(isolated ? "non-Primary" : "Primary")) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException(
                        "node " + node + " did not become " + (isolated ? "non-" : "") + "primary; see " + log(node));
            }
            Thread.sleep(100);
        }
        if (!isolated) {
            awaitSynced(node);
        }
    }

    /** A status variable of node {@code node}, such as {@code wsrep_local_bf_aborts}. */
    String status(int node, String variable) throws SQLException {
        try (Connection connection = server(node).getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            return row.next() ? row.getString(2) : "";
        }
    }

    /**
     * One number from node {@code node}, such as a count, read causally: after the node has applied everything
     * the cluster committed before the query.
     */
    long count(int node, String sql) throws SQLException {
        try (Connection connection = node(node).getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SET STATEMENT wsrep_sync_wait = 1 FOR " + sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private void bootstrap() throws Exception {
        for (int node = 1; node <= NODES; node++) {
            sqlPorts[node - 1] = Integer.getInteger("galera.port." + node, 0);
            if (sqlPorts[node - 1] == 0) {
                sqlPorts[node - 1] = freePort();
            }
            groupPorts[node - 1] = freePort();
        }
        for (int node = 1; node <= NODES; node++) {
            writeConfiguration(node);
        }
        ownByServerUser();
        run(asServerUser(List.of(
                INSTALL_DB.toString(),
                "--defaults-file=" + configuration(1),
                "--auth-root-authentication-method=normal",
                "--skip-test-db")));
        launch(1, true);
        awaitSynced(1);
        for (int node = 2; node <= NODES; node++) {
            launch(node, false);
        }
        for (int node = 2; node <= NODES; node++) {
            awaitSynced(node);
        }
        execute(1, "CREATE DATABASE IF NOT EXISTS idempotency");
    }

    private void writeConfiguration(int node) throws IOException {
        Path dir = home.resolve("node" + node);
        Files.createDirectories(dir.resolve("data"));
        Files.createDirectories(dir.resolve("tmp"));
        StringBuilder members = new StringBuilder();
        for (int port : groupPorts) {
            members.append(members.length() == 0 ? "" : ",")
                    .append("127.0.0.1:")
                    .append(port);
        }
        int group = groupPorts[node - 1];
        // Separate free ports for the incremental and the full transfer: their defaults (the group port + 1,
        // and 4444) would collide between nodes on one host.
        String configuration = String.join(
                "\n",
                "[mariadbd]",
                "datadir=" + dir.resolve("data"),
                "tmpdir=" + dir.resolve("tmp"),
                "socket=" + dir.resolve("mariadbd.sock"),
                "pid-file=" + dir.resolve("mariadbd.pid"),
                "log-error=" + dir.resolve("error.log"),
                "port=" + sqlPorts[node - 1],
                "bind-address=127.0.0.1",
                "innodb_buffer_pool_size=64M",
                "binlog_format=ROW",
                "innodb_autoinc_lock_mode=2",
                "wsrep_on=ON",
                "wsrep_provider=" + PROVIDER,
                "wsrep_cluster_name=idempotency-test",
                "wsrep_cluster_address=gcomm://" + members,
                "wsrep_node_name=node" + node,
                "wsrep_node_address=127.0.0.1:" + group,
                "wsrep_node_incoming_address=127.0.0.1:" + sqlPorts[node - 1],
                "wsrep_provider_options=\"base_port=" + group + ";ist.recv_addr=127.0.0.1:" + freePort()
                        + ";gcache.size=64M\"",
                "wsrep_sst_method=rsync",
                "wsrep_sst_receive_address=127.0.0.1:" + freePort(),
                "");
        Files.writeString(configuration(node), configuration);
    }

    private void launch(int node, boolean newCluster) throws IOException {
        List<String> command = new ArrayList<>(List.of(SERVER.toString(), "--defaults-file=" + configuration(node)));
        if (newCluster) {
            command.add("--wsrep-new-cluster");
        }
        nodes[node - 1] = new ProcessBuilder(asServerUser(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        home.resolve("node" + node).resolve("console.log").toFile()))
                .start();
    }

    /** Waits until the node answers and says it is synced with the cluster's primary component. */
    private void awaitSynced(int node) throws Exception {
        long deadline = System.currentTimeMillis() + START_MILLIS;
        while (true) {
            if (!nodes[node - 1].isAlive()) {
                throw new IllegalStateException("Galera node " + node + " stopped; see " + log(node));
            }
            try {
                if (status(node, "wsrep_local_state_comment").equals("Synced")) {
                    return;
                }
            } catch (SQLException notYet) {
                // Still starting, or still receiving its state.
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("Galera node " + node + " did not sync; see " + log(node));
            }
            Thread.sleep(200);
        }
    }

    private void execute(int node, String sql) throws SQLException {
        try (Connection connection = server(node).getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** As root, the command prefix that runs a program as the mysql user, with nothing in between to kill. */
    private static List<String> serverUser() {
        return isRoot() ? List.of("setpriv", "--reuid=mysql", "--regid=mysql", "--init-groups") : List.of();
    }

    private void ownByServerUser() throws Exception {
        if (isRoot()) {
            run(List.of("chown", "-R", "mysql:mysql", home.toString()));
        }
    }

    private static List<String> asServerUser(List<String> command) {
        List<String> prefixed = new ArrayList<>(serverUser());
        prefixed.addAll(command);
        return prefixed;
    }

    private void run(List<String> command) throws Exception {
        Path output = home.resolve("commands.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed; see " + output);
        }
    }

    private Path configuration(int node) {
        return home.resolve("node" + node).resolve("my.cnf");
    }

    private Path log(int node) {
        return home.resolve("node" + node).resolve("error.log");
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void stopAndDelete() {
        for (Process node : nodes) {
            if (node != null) {
                node.destroyForcibly();
            }
        }
        for (Process node : nodes) {
            if (node != null) {
                try {
                    node.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        try (Stream<Path> paths = Files.walk(home)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
