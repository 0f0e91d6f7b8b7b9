package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;

/**
 * A real WildFly from the build's unpacked distribution, started as a separate process with WARs in its
 * deployment scanner, against the embedded PostgreSQL. For the demo and the load benchmark, which outlive
 * a test. Each use gets its own copy of {@code standalone/}, so nothing is left behind for the container
 * tests.
 */
public final class LocalServer implements AutoCloseable {
    private final Process process;
    private final Path console;

    private LocalServer(Process process, Path console) {
        this.process = process;
        this.console = console;
    }

    /**
     * Starts WildFly with these WARs (file name → archive) on the standard ports and waits until all are
     * deployed.
     *
     * @param baseDirectoryName the server's own base directory under {@code target/}, such as {@code demo-server}
     */
    public static LocalServer start(Path jbossHome, String baseDirectoryName, Map<String, Path> wars)
            throws IOException, InterruptedException {
        return start(jbossHome, baseDirectoryName, wars, 0);
    }

    /**
     * Starts WildFly with every port moved by {@code portOffset} (HTTP on 8080 + offset), so a second node can
     * run beside the one Arquillian manages. The configuration comes from the build's snapshot, taken before
     * any test deployed into the server.
     */
    public static LocalServer start(Path jbossHome, String baseDirectoryName, Map<String, Path> wars, int portOffset)
            throws IOException, InterruptedException {
        return start(jbossHome, baseDirectoryName, wars, portOffset, Map.of());
    }

    /**
     * Starts WildFly as {@link #start(Path, String, Map, int)} does, with system properties of its own, such as
     * the port of the database node its datasource names ({@code pg.port} replaces the embedded PostgreSQL's).
     */
    public static LocalServer start(
            Path jbossHome,
            String baseDirectoryName,
            Map<String, Path> wars,
            int portOffset,
            Map<String, String> systemProperties)
            throws IOException, InterruptedException {
        requireFreePort(8080 + portOffset);
        requireFreePort(9990 + portOffset);
        int pgPort = PostgresExtension.start(false).getPort();
        Path serverDir = jbossHome.getParent().resolve(baseDirectoryName);
        deleteRecursively(serverDir);
        copyRecursively(jbossHome.getParent().resolve("wildfly-configuration"), serverDir.resolve("configuration"));
        Files.createDirectories(serverDir.resolve("deployments"));
        for (Map.Entry<String, Path> war : wars.entrySet()) {
            Files.copy(war.getValue(), serverDir.resolve("deployments").resolve(war.getKey()));
        }
        Path console = serverDir.resolve("log/console.log");
        Files.createDirectories(console.getParent());
        Map<String, String> properties = new TreeMap<>(Map.of("pg.port", Integer.toString(pgPort)));
        properties.putAll(systemProperties);
        List<String> command = new ArrayList<>(List.of(
                jbossHome.resolve("bin/standalone.sh").toString(),
                "--server-config=standalone-full.xml",
                "-Djboss.server.base.dir=" + serverDir,
                "-Djboss.socket.binding.port-offset=" + portOffset));
        properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        LocalServer server = new LocalServer(process, console);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        for (String war : new ArrayList<>(wars.keySet())) {
            server.awaitDeployment(serverDir.resolve("deployments"), war);
        }
        return server;
    }

    public Path console() {
        return console;
    }

    /** The process this class started (the server's start script); the server's JVM is its child. */
    public long pid() {
        return process.pid();
    }

    public void awaitExit() throws InterruptedException {
        process.waitFor();
    }

    /**
     * Kills the server's JVM the way a crash does ({@code kill -9}): no shutdown hook, no rollback, no goodbye
     * to the database. Only the operating system closes its sockets.
     */
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() {
        // The server's JVM is a child of the start script: wait for it too, or its ports may still be bound
        // when the next server on them starts.
        List<ProcessHandle> children = process.descendants().toList();
        children.forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            process.waitFor();
            for (ProcessHandle child : children) {
                child.onExit().get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("waiting for the server's processes to end failed", e);
        }
    }

    private void awaitDeployment(Path deployments, String war) throws InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.exists(deployments.resolve(war + ".deployed"))) {
                return;
            }
            if (Files.exists(deployments.resolve(war + ".failed")) || !process.isAlive()) {
                throw new IllegalStateException(war + " did not deploy; see " + console);
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(war + " did not deploy within 180 s; see " + console);
    }

    private static void requireFreePort(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            socket.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " is in use; stop whatever listens there (another"
                    + " WildFly, or an earlier demo) and run again");
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : (Iterable<Path>) paths::iterator) {
                Files.copy(source, to.resolve(from.relativize(source).toString()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
