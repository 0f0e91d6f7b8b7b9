package dev.idempotency.adopt;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Adopts a WAR that is already built: checks it for the filter, and writes a copy with the filter jar and the
 * settings file added, leaving the original untouched.
 *
 * <pre>
 * java -jar idempotency-adopt.jar check app.war --settings idempotency.properties
 * java -jar idempotency-adopt.jar adopt app.war --settings idempotency.properties --out app-idempotent.war
 * java -jar idempotency-adopt.jar check app-idempotent.war
 * </pre>
 *
 * The check reads the WAR without deploying it: its persistence units, its {@code web.xml}, and its classes'
 * JAX-RS and servlet annotations. It reports what it found, which route serves each operation, what will fail
 * and what it could not verify. {@code adopt} writes only a WAR whose check finds nothing that will fail, then
 * checks what it wrote. Exit status: 0 when nothing the command can see will fail, 1 when something will, 2 when
 * it could not run. See {@code docs/adopting-a-built-war.md}.
 */
public final class AdoptCommand {
    private static final String USAGE =
            """
            usage: java -jar idempotency-adopt.jar check <war> [--settings <idempotency.properties>]
                   java -jar idempotency-adopt.jar adopt <war> --settings <idempotency.properties> --out <new war>
                                                     [--force] [--filter-jar <idempotency-filter jar>]

              check  reports what the filter will find in the WAR and which route serves each operation; with
                     --settings, the WAR as adopting it would make it; without, a WAR that already holds the
                     filter jar and WEB-INF/idempotency.properties
              adopt  writes a copy of the WAR with the filter jar and the settings file added (the original is
                     never changed), if the check finds nothing that will fail, and checks the copy
              --force       replace --out if it exists
              --filter-jar  add this filter jar instead of the one built into this command for the WAR's
                            namespace (idempotency-filter for jakarta.*, idempotency-filter-javax for javax.*)

            exit status: 0 nothing the command can see will fail, 1 something will (see the report), 2 could not run""";
    private static final Set<String> VALUE_OPTIONS = Set.of("--settings", "--out", "--filter-jar");

    private AdoptCommand() {}

    public static void main(String[] arguments) {
        System.exit(run(arguments, System.out, System::getenv));
    }

    /**
     * @param environment the environment the settings' {@code encryption-keys} may name
     * @return the exit status
     */
    static int run(String[] arguments, PrintStream out, UnaryOperator<String> environment) {
        if (arguments.length == 0 || List.of("--help", "-h", "help").contains(arguments[0])) {
            out.println(USAGE);
            return arguments.length == 0 ? 2 : 0;
        }
        String action = arguments[0];
        if (!action.equals("check") && !action.equals("adopt")) {
            return usage(out, "unknown command '" + action + "'");
        }
        List<String> positional = new ArrayList<>();
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < arguments.length; i++) {
            String argument = arguments[i];
            if (VALUE_OPTIONS.contains(argument) && i + 1 < arguments.length) {
                options.put(argument, arguments[++i]);
            } else if (argument.equals("--force") || argument.equals("--help")) {
                options.put(argument, "");
            } else if (argument.startsWith("-")) {
                return usage(out, "unknown or incomplete option '" + argument + "'");
            } else {
                positional.add(argument);
            }
        }
        if (options.containsKey("--help")) {
            out.println(USAGE);
            return 0;
        }
        if (positional.size() != 1) {
            return usage(out, "name exactly one WAR");
        }
        Path war = Path.of(positional.get(0));
        try {
            return action.equals("check")
                    ? check(war, options, out, environment)
                    : adopt(war, options, out, environment);
        } catch (IOException | UncheckedIOException e) {
            out.println("The command could not run: " + e.getMessage());
            return 2;
        }
    }

    private static int check(Path war, Map<String, String> options, PrintStream out, UnaryOperator<String> environment)
            throws IOException {
        if (options.containsKey("--out") || options.containsKey("--force") || options.containsKey("--filter-jar")) {
            return usage(out, "--out, --force and --filter-jar belong to adopt");
        }
        Optional<WarCheck.SettingsFile> settings = settings(options);
        Report report = WarCheck.check(readWar(war), settings, environment);
        report.print(out);
        return report.willWork() ? 0 : 1;
    }

    private static int adopt(Path war, Map<String, String> options, PrintStream out, UnaryOperator<String> environment)
            throws IOException {
        if (!options.containsKey("--settings") || !options.containsKey("--out")) {
            return usage(out, "adopt needs --settings and --out");
        }
        Path output = Path.of(options.get("--out"));
        if (Files.exists(output)) {
            if (Files.exists(war) && Files.isSameFile(war, output)) {
                return usage(out, "--out names the WAR itself; the original is never changed, name a new file");
            }
            if (!options.containsKey("--force")) {
                return usage(out, output + " exists; add --force to replace it");
            }
        }
        WarCheck.SettingsFile settings = settings(options).orElseThrow();
        Report before = WarCheck.check(readWar(war), Optional.of(settings), environment);
        if (!before.willWork()) {
            before.print(out);
            out.println("Nothing written: fix what will fail, then run adopt again.");
            return 1;
        }
        WarNamespace namespace = WarCheck.namespaceOf(readWar(war));
        FilterJar filterJar = options.containsKey("--filter-jar")
                ? FilterJar.fromFile(Path.of(options.get("--filter-jar")))
                : FilterJar.embedded(namespace.namespace());
        Optional<String> mismatch = filterJar.mismatch(namespace);
        if (mismatch.isPresent()) {
            out.println(mismatch.get());
            out.println("Nothing written: with that jar the server would refuse the application.");
            return 1;
        }
        int copied = WarAdopter.write(war, output, filterJar, settings);
        out.println("Wrote " + output + ": the " + copied + " entries of " + war + " unchanged, plus "
                + filterJar.entryName() + " and " + WarCheck.SETTINGS_ENTRY + ".");
        out.println();
        Report after = WarCheck.check(readWar(output), Optional.empty(), environment);
        after.print(out);
        return after.willWork() ? 0 : 1;
    }

    private static WarFile readWar(Path war) throws IOException {
        if (!Files.isRegularFile(war)) {
            throw new IOException("no WAR at " + war);
        }
        return WarFile.read(war);
    }

    private static Optional<WarCheck.SettingsFile> settings(Map<String, String> options) throws IOException {
        if (!options.containsKey("--settings")) {
            return Optional.empty();
        }
        Path file = Path.of(options.get("--settings"));
        if (!Files.isRegularFile(file)) {
            throw new IOException("no settings file at " + file);
        }
        return Optional.of(new WarCheck.SettingsFile(file.toString(), Files.readAllBytes(file)));
    }

    private static int usage(PrintStream out, String problem) {
        out.println(problem);
        out.println(USAGE);
        return 2;
    }
}
