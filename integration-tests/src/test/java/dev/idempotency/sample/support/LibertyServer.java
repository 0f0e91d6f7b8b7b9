package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A second Open Liberty server of the build's Liberty installation, with a {@code server.xml} of its own, started
 * and stopped by a test beside the shared server that Arquillian runs: for feature sets the shared server must
 * not have. It has its own HTTP port and its own {@code messages.log}.
 *
 * <p>Not thread-safe: one test class drives it.
 */
public final class LibertyServer implements AutoCloseable {
    private static final Duration START = Duration.ofSeconds(180);
    /** Liberty's message for an HTTP port another process holds. */
    private static final String PORT_TAKEN = "CWWKO0221E";

    private final Path wlp = Path.of(System.getProperty("liberty.home"));
    private final String name;
    private final Path directory;
    private final List<String> extraFeatures;
    private int httpPort;

    /**
     * Creates the server from {@code serverXml}, with {@code application} in its dropins, and starts it; returns
     * once the application started or failed to.
     *
     * @param extraFeatures features added to those of {@code serverXml}, through {@code configDropins/overrides}
     */
    public LibertyServer(String name, Path serverXml, List<String> extraFeatures, WebArchive application)
            throws Exception {
        this.name = name;
        this.extraFeatures = extraFeatures;
        this.directory = wlp.resolve("usr/servers").resolve(name);
        // A free port can be taken by another process before the server binds it: then the setup, never an
        // assertion, is tried again on another port.
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            start(serverXml, application, port);
            if (messages().stream().noneMatch(line -> line.contains(PORT_TAKEN))) {
                this.httpPort = port;
                return;
            }
            run("stop");
            if (attempt == 3) {
                throw new IllegalStateException("server " + name + " found its HTTP port taken three times");
            }
        }
    }

    private void start(Path serverXml, WebArchive application, int port) throws Exception {
        deleteRecursively(directory);
        Files.createDirectories(directory.resolve("dropins"));
        Files.copy(serverXml, directory.resolve("server.xml"), StandardCopyOption.REPLACE_EXISTING);
        if (!extraFeatures.isEmpty()) {
            Files.createDirectories(directory.resolve("configDropins/overrides"));
            StringBuilder features = new StringBuilder("<server><featureManager>");
            extraFeatures.forEach(
                    feature -> features.append("<feature>").append(feature).append("</feature>"));
            Files.writeString(
                    directory.resolve("configDropins/overrides/features.xml"),
                    features.append("</featureManager></server>\n"));
        }
        Files.writeString(
                directory.resolve("bootstrap.properties"),
                "http.port=" + port + "\npg.port=" + System.getProperty("pg.port") + "\n");
        application
                .as(ZipExporter.class)
                .exportTo(directory
                        .resolve("dropins")
                        .resolve(application.getName())
                        .toFile());
        run("start");
        awaitApplication(application.getName().replaceFirst("\\.war$", ""));
    }

    /** The root URL of a deployment's context on this server. */
    public URI context(String contextRoot) {
        return URI.create("http://127.0.0.1:" + httpPort + "/" + contextRoot + "/");
    }

    /** Every line of the server's {@code messages.log}, where Liberty writes what applications log. */
    public List<String> messages() throws IOException {
        return Files.readAllLines(directory.resolve("logs/messages.log"), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        run("stop");
    }

    /** Waits for the line that says whether the application started (CWWKZ0001I) or not (CWWKZ0002E, 0012I). */
    private void awaitApplication(String application) throws Exception {
        Instant deadline = Instant.now().plus(START);
        Path log = directory.resolve("logs/messages.log");
        while (Instant.now().isBefore(deadline)) {
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    if (line.contains(application)
                            && (line.contains("CWWKZ0001I")
                                    || line.contains("CWWKZ0002E")
                                    || line.contains("CWWKZ0012I"))) {
                        return;
                    }
                }
            }
            // Polling another process's log; nothing in this JVM to wait on.
            Thread.sleep(250);
        }
        throw new IllegalStateException("server " + name + " said nothing about " + application + " in " + START);
    }

    private void run(String command) throws Exception {
        Process process = new ProcessBuilder(wlp.resolve("bin/server").toString(), command, name)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(wlp.resolve("usr/servers")
                        .resolve(name + "-commands.log")
                        .toFile()))
                .start();
        if (!process.waitFor(START.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("'server " + command + " " + name + "' did not return");
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (var paths = Files.walk(path)) {
            for (Path each : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(each);
            }
        }
    }
}
