package dev.idempotency.sample.support.payara;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Payara's own command line, as an operator runs it: for the build's container and the Payara-only tests. */
public final class Asadmin {
    private Asadmin() {}

    /** The Payara the build unpacked for its container tests. */
    public static Path home() {
        return Path.of(System.getProperty("payara.home"));
    }

    /** Runs one asadmin command; its output, or a {@link Failure} with it if it failed. */
    public static String run(Path payaraHome, int timeoutSeconds, String... arguments) throws Failure {
        return run(payaraHome, null, timeoutSeconds, arguments);
    }

    /**
     * Runs one asadmin command on the Java in {@code javaHome} ({@code null}: the tests' own), which a domain it
     * starts runs on too: asadmin reads {@code AS_JAVA}, and start-domain launches the server with asadmin's Java.
     */
    public static String run(Path payaraHome, String javaHome, int timeoutSeconds, String... arguments) throws Failure {
        List<String> command = new ArrayList<>();
        command.add(payaraHome.resolve("bin").resolve("asadmin").toString());
        command.add("--interactive=false");
        command.addAll(List.of(arguments));
        try {
            Path output = Files.createTempFile("asadmin", ".log");
            ProcessBuilder builder =
                    new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
            if (javaHome != null) {
                builder.environment().put("AS_JAVA", javaHome);
                builder.environment().put("JAVA_HOME", javaHome);
            }
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new Failure(String.join(" ", arguments) + " did not end in " + timeoutSeconds + " s");
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            Files.delete(output);
            if (process.exitValue() != 0) {
                throw new Failure(String.join(" ", arguments) + " failed: " + text);
            }
            return text;
        } catch (IOException e) {
            throw new Failure("could not run asadmin: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure("interrupted while running asadmin");
        }
    }

    /** An asadmin command that failed, with what it printed. */
    public static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }
}
