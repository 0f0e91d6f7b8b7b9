package dev.idempotency.sample.support;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A PostgreSQL 18.6 primary and a streaming standby on two ports of this machine, from the same zonky binaries as
 * {@link PostgresExtension}. Those binaries have {@code initdb}, {@code pg_ctl} and {@code postgres} but no {@code
 * pg_basebackup}, so the standby is a cold copy: the primary is initialized and stopped, its data directory copied,
 * and the copy gets {@code standby.signal} and a {@code primary_conninfo}; then both start. Unlike the single test
 * server, both are durable ({@code fsync}, {@code synchronous_commit}, {@code full_page_writes} on), since what the
 * pair is for is whether commits survive a crash.
 *
 * <p>The failover is the one an operator or a tool such as Patroni performs: the primary dies ({@link
 * #killPrimary()}, {@code kill -9}), then the standby is promoted ({@link #promoteStandby()}). Applications reach the
 * primary of the moment through {@link #jdbcUrl()}, which lists both servers with {@code targetServerType=primary}.
 *
 * <p>Not thread-safe: one test drives it.
 */
public final class PostgresPair implements AutoCloseable {
    /** Whether a commit on the primary waits for the standby. */
    public enum Replication {
        /** A commit returns once the standby has flushed its WAL ({@code synchronous_standby_names}). */
        SYNCHRONOUS,
        /** A commit returns at once; the standby follows a moment later. */
        ASYNCHRONOUS
    }

    /** The standby's {@code application_name}, which {@code synchronous_standby_names} refers to. */
    public static final String STANDBY_NAME = "standby";

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** zonky's lock on the primary's directory (the standby's server takes its own) and the primary's process files. */
    private static final Set<String> NOT_COPIED = Set.of("epg-lock", "postmaster.pid", "postmaster.opts");

    private final Path directory;
    private final int primaryPort;
    private final int standbyPort;
    private EmbeddedPostgres primary;
    private final EmbeddedPostgres standby;
    private boolean failedOver;

    private PostgresPair(
            Path directory, int primaryPort, int standbyPort, EmbeddedPostgres primary, EmbeddedPostgres standby) {
        this.directory = directory;
        this.primaryPort = primaryPort;
        this.standbyPort = standbyPort;
        this.primary = primary;
        this.standby = standby;
    }

    /**
     * Starts a primary on {@code primaryPort} and its standby on {@code standbyPort}, and returns once the standby
     * streams (and, for {@link Replication#SYNCHRONOUS}, is the synchronous one).
     */
    public static PostgresPair start(int primaryPort, int standbyPort, Replication replication) throws IOException {
        Path directory = Files.createTempDirectory("pg-pair");
        Path primaryData = directory.resolve("primary");
        Path standbyData = directory.resolve("standby");
        server(primaryData, primaryPort, directory).close();
        copy(primaryData, standbyData);
        // An empty standby.signal makes the server start in standby mode and stay there until promoted.
        Files.createFile(standbyData.resolve("standby.signal"));
        Files.writeString(
                standbyData.resolve("postgresql.auto.conf"),
                "primary_conninfo = 'host=127.0.0.1 port=" + primaryPort + " user=postgres application_name="
                        + STANDBY_NAME + "'\n",
                StandardOpenOption.APPEND);
        EmbeddedPostgres primary = server(primaryData, primaryPort, directory);
        EmbeddedPostgres standby;
        try {
            standby = server(standbyData, standbyPort, directory);
        } catch (IOException | RuntimeException e) {
            primary.close();
            throw e;
        }
        PostgresPair pair = new PostgresPair(directory, primaryPort, standbyPort, primary, standby);
        pair.replicate(replication);
        return pair;
    }

    private static EmbeddedPostgres server(Path dataDirectory, int port, Path socketDirectory) throws IOException {
        return EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                // Not /tmp: a killed server leaves its socket's lock file behind, and a later server on the same
                // port refuses to start while the dead one's process id is not yet reaped.
                .setServerConfig("unix_socket_directories", socketDirectory.toString())
                // zonky starts the server with -F (fsync off); these come later on its command line and win.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("full_page_writes", "on")
                .start();
    }

    private static void copy(Path from, Path to) throws IOException {
        try (var paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                if (NOT_COPIED.contains(source.getFileName().toString())) {
                    continue;
                }
                Path target = to.resolve(from.relativize(source));
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                }
            }
        }
        // PostgreSQL refuses to start on a data directory that others may read (initdb made it 0700).
        Files.setPosixFilePermissions(to, Files.getPosixFilePermissions(from));
    }

    /**
     * Makes commits on the primary wait for the standby, or not. {@code synchronous_standby_names} is set on the
     * primary only (in its {@code postgresql.auto.conf}): a promoted standby without a standby of its own must not
     * make every commit wait for one.
     */
    public void replicate(Replication replication) {
        requireIntact();
        String names = replication == Replication.SYNCHRONOUS ? "'" + STANDBY_NAME + "'" : "''";
        execute(primary(), "ALTER SYSTEM SET synchronous_standby_names = " + names);
        execute(primary(), "SELECT pg_reload_conf()");
        String state = replication == Replication.SYNCHRONOUS ? "sync" : "async";
        await(
                "the standby streaming as " + state,
                () -> queryLong(
                                primary(),
                                "SELECT count(*) FROM pg_stat_replication WHERE application_name = '" + STANDBY_NAME
                                        + "' AND state = 'streaming' AND sync_state = '" + state + "'")
                        == 1);
    }

    /** Waits until the standby has replayed everything the primary has written so far. */
    public void awaitStandbyCaughtUp() {
        requireIntact();
        String written = queryString(primary(), "SELECT pg_current_wal_lsn()::text");
        await(
                "the standby replaying up to " + written,
                () -> queryLong(
                                standby(),
                                "SELECT count(*) WHERE pg_last_wal_replay_lsn() >= '" + written + "'::pg_lsn")
                        == 1);
    }

    /**
     * Stops the standby's WAL receiver, so that it falls behind from now on: the lag asynchronous replication
     * allows. (With synchronous replication, commits would now wait.)
     */
    public void disconnectStandby() {
        requireIntact();
        execute(standby(), "ALTER SYSTEM SET primary_conninfo = ''");
        execute(standby(), "SELECT pg_reload_conf()");
        await(
                "the standby's WAL receiver gone",
                () -> queryLong(standby(), "SELECT count(*) FROM pg_stat_wal_receiver") == 0);
    }

    /**
     * Kills the primary as a crash does: {@code kill -9} of the postmaster and of every process it started, so
     * nothing is flushed, nothing says goodbye to the standby or to the clients.
     */
    public void killPrimary() throws IOException {
        requireIntact();
        long pid = Long.parseLong(Files.readAllLines(directory.resolve("primary/postmaster.pid"))
                .get(0)
                .trim());
        ProcessHandle postmaster =
                ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no primary process " + pid));
        // Listed first: once the postmaster is gone, its children are no longer its descendants.
        List<ProcessHandle> children = postmaster.descendants().toList();
        postmaster.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
        await(
                "the primary's processes gone",
                () -> !alive(postmaster) && children.stream().noneMatch(PostgresPair::alive));
        failedOver = true;
        // Without its pid file, zonky's pg_ctl stop gives up at once (and logs that) instead of waiting on a corpse.
        Files.delete(directory.resolve("primary/postmaster.pid"));
        primary.close();
        primary = null;
    }

    /** A killed process that nobody reaps stays a zombie, which the JDK still calls alive. */
    private static boolean alive(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Promotes the standby ({@code pg_promote()}, the SQL form of {@code pg_ctl promote}) and returns once it
     * accepts writes.
     */
    public void promoteStandby() {
        if (!queryBoolean(standby(), "SELECT pg_promote(true, 60)")) {
            throw new IllegalStateException("the standby on port " + standbyPort + " was not promoted within 60 s");
        }
        failedOver = true;
    }

    /** Whether the pair has lost its primary or promoted its standby; a fresh pair is needed for another failover. */
    public boolean failedOver() {
        return failedOver;
    }

    /**
     * The URL an application's datasource uses: both servers, and only the one that accepts writes. pgjdbc tries
     * them in order and skips a standby.
     */
    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + primaryPort + ",localhost:" + standbyPort
                + "/postgres?targetServerType=primary";
    }

    /** The application's view: whichever of the two is the primary when a connection opens. */
    public DataSource currentPrimary() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setServerNames(new String[] {"localhost", "localhost"});
        dataSource.setPortNumbers(new int[] {primaryPort, standbyPort});
        dataSource.setDatabaseName("postgres");
        dataSource.setUser("postgres");
        dataSource.setTargetServerType("primary");
        return dataSource;
    }

    /** The server started as the primary (dead after {@link #killPrimary()}). */
    public DataSource primary() {
        return direct(primaryPort);
    }

    /** The server started as the standby (the primary after {@link #promoteStandby()}). */
    public DataSource standby() {
        return direct(standbyPort);
    }

    private static DataSource direct(int port) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setServerNames(new String[] {"localhost"});
        dataSource.setPortNumbers(new int[] {port});
        dataSource.setDatabaseName("postgres");
        dataSource.setUser("postgres");
        return dataSource;
    }

    /** Stops what still runs and deletes both data directories. */
    @Override
    public void close() throws IOException {
        if (primary != null) {
            primary.close();
        }
        standby.close();
        try (var paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    private void requireIntact() {
        if (failedOver) {
            throw new IllegalStateException("the pair has failed over; start a new one");
        }
    }

    private static void execute(DataSource dataSource, String sql) {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static long queryLong(DataSource dataSource, String sql) {
        return Long.parseLong(queryString(dataSource, sql));
    }

    private static boolean queryBoolean(DataSource dataSource, String sql) {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getBoolean(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static String queryString(DataSource dataSource, String sql) {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("waited " + WAIT.toSeconds() + " s for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }
}
