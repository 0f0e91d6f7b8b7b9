package dev.idempotency.sample.demo;

import dev.idempotency.sample.support.PostgresExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The demo: a real PostgreSQL 18.6 and a real WildFly with the sample WAR, serving {@code
 * http://localhost:8080/sample/api} until interrupted. Run it with {@code mvn -P demo verify -DskipTests}.
 *
 * <p>The server runs from its own copy of {@code standalone/} in {@code target/demo-server}, so the demo
 * never leaves a deployment behind for the container tests.
 */
public final class DemoServer {
    private static final String API = "http://localhost:8080/sample/api";

    private DemoServer() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path war = Path.of(System.getProperty("sample.war"));
        requireFreePort(8080);
        requireFreePort(9990);

        int pgPort = PostgresExtension.start().getPort();
        System.out.println("PostgreSQL 18.6 is running on port " + pgPort);

        Path serverDir = jbossHome.getParent().resolve("demo-server");
        deleteRecursively(serverDir);
        copyRecursively(jbossHome.resolve("standalone"), serverDir);
        Files.copy(war, serverDir.resolve("deployments/sample.war"), StandardCopyOption.REPLACE_EXISTING);
        Path console = serverDir.resolve("log/console.log");
        Files.createDirectories(console.getParent());

        Process wildfly = new ProcessBuilder(List.of(
                        jbossHome.resolve("bin/standalone.sh").toString(),
                        "-Djboss.server.base.dir=" + serverDir,
                        "-Dpg.port=" + pgPort))
                .redirectErrorStream(true)
                .redirectOutput(console.toFile())
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(wildfly)));
        System.out.println("WildFly is starting; its log is " + console);

        awaitDeployment(serverDir.resolve("deployments"), wildfly);
        printScenario();
        wildfly.waitFor();
    }

    private static void awaitDeployment(Path deployments, Process wildfly) throws InterruptedException {
        long deadline = System.nanoTime() + 180_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.exists(deployments.resolve("sample.war.deployed"))) {
                return;
            }
            if (Files.exists(deployments.resolve("sample.war.failed")) || !wildfly.isAlive()) {
                throw new IllegalStateException("the sample did not deploy; see the WildFly log");
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the sample did not deploy within 180 s; see the WildFly log");
    }

    private static void printScenario() {
        String debit = "curl -si -u alice:alice -H 'Content-Type: application/json' -H 'Idempotency-Key: checkout-42'";
        System.out.println("\nThe sample is deployed at " + API + " (users alice/alice and bob/bob).");
        System.out.println("The chapter's scenario on account 1 (balance 1000):\n");
        System.out.println("  # debit 100: 200 {\"balance\":900}");
        System.out.println("  " + debit + " -d '{\"amount\": 100}' " + API + "/accounts/1/debits");
        System.out.println("  # the same call again: the stored {\"balance\":900}, with Idempotent-Replayed: true");
        System.out.println("  " + debit + " -d '{\"amount\": 100}' " + API + "/accounts/1/debits");
        System.out.println("  # the same key for 101: 422 application/problem+json, nothing debited");
        System.out.println("  " + debit + " -d '{\"amount\": 101}' " + API + "/accounts/1/debits");
        System.out.println("  # the balance: 900");
        System.out.println("  curl -s -u alice:alice " + API + "/accounts/1");
        System.out.println("\nPress Ctrl+C to stop WildFly and PostgreSQL.");
    }

    private static void stop(Process wildfly) {
        wildfly.descendants().forEach(ProcessHandle::destroy);
        wildfly.destroy();
        try {
            wildfly.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void requireFreePort(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            socket.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " is in use; stop whatever listens there (another"
                    + " WildFly, or an earlier demo) and run the demo again");
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
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
