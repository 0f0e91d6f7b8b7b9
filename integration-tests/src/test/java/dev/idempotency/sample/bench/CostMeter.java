package dev.idempotency.sample.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a phase of a benchmark costs the machine, per request: the work done rather than the time it took, so that
 * two runs on a shared machine agree on it when their throughputs do not. Read before and after a phase:
 *
 * <ul>
 *   <li>CPU time, from {@code /proc/<pid>/stat} (utime and stime, and cutime and cstime for children that exited
 *       and were reaped), of the server's process tree, of each database's process tree (PostgreSQL's postmaster
 *       with its backends and auxiliary processes; MariaDB's {@code mariadbd}), and of this JVM alone, the load
 *       generator (which also runs {@link DelayingProxy} when there is one);
 *   <li>the statements PostgreSQL ran, from {@code pg_stat_statements}, besides {@code BEGIN}, {@code COMMIT} and
 *       {@code ROLLBACK} (as {@code StatementCountIT} counts them);
 *   <li>the round trips to PostgreSQL: the data segments its sockets received, from the kernel's TCP counters
 *       ({@code ss -ti}, {@code data_segs_in}). On loopback a segment holds up to 64 KiB, and the JDBC driver sends
 *       each round trip's messages in one write, so a segment is a round trip;
 *   <li>the WAL PostgreSQL wrote: how far its insert position moved ({@code pg_current_wal_insert_lsn()}). {@code
 *       pg_stat_wal.wal_bytes} counts the same records, but a backend adds its counts to the view at most once a
 *       second and, once idle, up to 10 s later (PostgreSQL's {@code pgstat.c}, {@code PGSTAT_IDLE_INTERVAL}), so
 *       a phase's last second would land in the next phase.
 * </ul>
 *
 * <p>Every phase starts right after a {@code CHECKPOINT}: the first change to a page after a checkpoint writes the
 * whole page to the WAL, so a phase's WAL depends on how long ago the last one was unless each phase starts from
 * one. The meter's own connection, statements and round trips are left out; so are the round trips of a connection
 * that closes during a phase (the kernel's counters go with it), which the server's pool does not do under load.
 * Not thread-safe: one phase at a time.
 */
final class CostMeter implements AutoCloseable {
    /** The per-socket counter {@code ss -ti} prints. */
    private static final Pattern DATA_SEGMENTS_IN = Pattern.compile("data_segs_in:(\\d+)");

    private static final String COUNTERS = "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint,"
            + " (SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%'"
            + " AND query !~* '^\\s*(begin|commit|rollback|checkpoint)\\M')";

    private static final double CLOCK_TICKS_PER_SECOND = clockTicksPerSecond();

    private final long serverPid;
    private final Map<String, Long> databasePids;
    private final Connection postgres;
    private final int postgresPort;
    private final String ownSocket;

    /** What the counters read at one moment. */
    record Sample(
            long serverTicks,
            Map<String, Long> databaseTicks,
            long clientTicks,
            long statements,
            Map<String, Long> segmentsBySocket,
            long walPosition) {}

    /** A phase's cost divided by the requests it completed; CPU in milliseconds, WAL in bytes. */
    record Cost(
            long requests,
            double serverCpuMillis,
            Map<String, Double> databaseCpuMillis,
            double clientCpuMillis,
            double statements,
            double roundTrips,
            double walBytes) {}

    /**
     * @param serverPid the root of the server's process tree ({@code LocalServer.pid()})
     * @param postgres PostgreSQL, with {@code pg_stat_statements} preloaded; its postmaster's tree is measured
     * @param otherDatabasePids the roots of other databases' process trees, by name, such as MariaDB's server
     */
    CostMeter(long serverPid, EmbeddedPostgres postgres, Map<String, Long> otherDatabasePids) throws SQLException {
        this.serverPid = serverPid;
        this.postgres = postgres.getPostgresDatabase().getConnection();
        this.postgresPort = postgres.getPort();
        try (Statement statement = this.postgres.createStatement()) {
            statement.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
        }
        this.databasePids = new LinkedHashMap<>();
        databasePids.put("PostgreSQL", pidInFile(Path.of(queryString("SHOW data_directory"), "postmaster.pid")));
        databasePids.putAll(otherDatabasePids);
        this.ownSocket = ":" + queryString("SELECT inet_client_port()");
    }

    /** The process id in the first line of a server's PID file (PostgreSQL's {@code postmaster.pid}, MariaDB's). */
    static long pidInFile(Path pidFile) {
        try (Stream<String> lines = Files.lines(pidFile)) {
            return Long.parseLong(lines.findFirst().orElseThrow().trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Checkpoints, then reads the counters: the start of a phase. */
    Sample start() throws SQLException {
        try (Statement statement = postgres.createStatement()) {
            statement.execute("CHECKPOINT");
        }
        return sample();
    }

    /** The cost since {@code start}, per request of the {@code requests} completed in between. */
    Cost since(Sample start, long requests) throws SQLException {
        Sample end = sample();
        double perRequest = Math.max(1, requests);
        Map<String, Double> databaseCpu = new LinkedHashMap<>();
        end.databaseTicks()
                .forEach((name, ticks) -> databaseCpu.put(
                        name, millis(ticks - start.databaseTicks().get(name)) / perRequest));
        long segments = 0;
        for (Map.Entry<String, Long> socket : end.segmentsBySocket().entrySet()) {
            segments += socket.getValue() - start.segmentsBySocket().getOrDefault(socket.getKey(), 0L);
        }
        return new Cost(
                requests,
                millis(end.serverTicks() - start.serverTicks()) / perRequest,
                databaseCpu,
                millis(end.clientTicks() - start.clientTicks()) / perRequest,
                (end.statements() - start.statements()) / perRequest,
                segments / perRequest,
                (end.walPosition() - start.walPosition()) / perRequest);
    }

    private Sample sample() throws SQLException {
        long walPosition;
        long statements;
        try (Statement statement = postgres.createStatement();
                ResultSet row = statement.executeQuery(COUNTERS)) {
            row.next();
            walPosition = row.getLong(1);
            statements = row.getLong(2);
        }
        Map<String, Long> databaseTicks = new LinkedHashMap<>();
        databasePids.forEach((name, pid) -> databaseTicks.put(name, treeTicks(pid)));
        return new Sample(
                treeTicks(serverPid),
                databaseTicks,
                ownTicks(ProcessHandle.current().pid()),
                statements,
                segmentsBySocket(),
                walPosition);
    }

    /**
     * CPU ticks of a process and every descendant alive, each with its reaped children's: a child that exits is
     * added to its parent's cutime and cstime as it leaves the sum of the living, so nothing is counted twice.
     */
    private static long treeTicks(long rootPid) {
        ProcessHandle root = ProcessHandle.of(rootPid)
                .orElseThrow(() -> new IllegalStateException("no process " + rootPid + " to measure"));
        return Stream.concat(Stream.of(root), root.descendants())
                .mapToLong(process -> {
                    long[] times = cpuTimes(process.pid());
                    return times[0] + times[1] + times[2] + times[3];
                })
                .sum();
    }

    /** This JVM's own ticks, without its children's: the server and the databases may be its children. */
    private static long ownTicks(long pid) {
        long[] times = cpuTimes(pid);
        return times[0] + times[1];
    }

    /** utime, stime, cutime and cstime (fields 14 to 17 of {@code /proc/<pid>/stat}), or zeros if it exited. */
    private static long[] cpuTimes(long pid) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException exited) {
            return new long[4];
        }
        // Field 2, the command, is in parentheses and may hold spaces; count the fields after it, from field 3.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long[] times = new long[4];
        for (int i = 0; i < 4; i++) {
            times[i] = Long.parseLong(fields[11 + i]);
        }
        return times;
    }

    /** Data segments received by each of PostgreSQL's established sockets but the meter's, by its peer. */
    private Map<String, Long> segmentsBySocket() {
        Map<String, Long> segments = new HashMap<>();
        String socket = null;
        for (String line : run("ss", "-tinH", "state", "established", "( sport = :" + postgresPort + " )")
                .split("\n")) {
            if (!line.isBlank() && !Character.isWhitespace(line.charAt(0))) {
                String[] columns = line.trim().split("\\s+");
                socket = columns[columns.length - 1];
            } else if (socket != null && !socket.endsWith(ownSocket)) {
                Matcher counter = DATA_SEGMENTS_IN.matcher(line);
                if (counter.find()) {
                    segments.put(socket, Long.parseLong(counter.group(1)));
                }
            }
        }
        return segments;
    }

    private String queryString(String sql) throws SQLException {
        try (Statement statement = postgres.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getString(1);
        }
    }

    private static double millis(long ticks) {
        return ticks * 1000 / CLOCK_TICKS_PER_SECOND;
    }

    private static double clockTicksPerSecond() {
        return Double.parseDouble(run("getconf", "CLK_TCK").trim());
    }

    private static String run(String... command) {
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws SQLException {
        postgres.close();
    }
}
