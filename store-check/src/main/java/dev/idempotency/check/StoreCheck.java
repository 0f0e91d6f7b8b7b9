package dev.idempotency.check;

import dev.idempotency.ConfigurationException;
import dev.idempotency.tx.LocalTransactions;
import java.io.PrintStream;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The store check: whether the filter's SQL keeps its promises on your database, before you trust it there.
 *
 * <pre>
 * java -cp idempotency-store-check.jar:your-jdbc-driver.jar dev.idempotency.check.StoreCheck \
 *     --url jdbc:postgresql://db:5432/app --user app --password secret [--schema existing_schema]
 * </pre>
 *
 * It creates the filter's tables in a scratch schema from the DDL in the jar (or, with {@code --schema}, uses the
 * tables already there and deletes only the rows it wrote), runs every check of the store contract with real
 * concurrency, prints one line per check, drops the scratch schema, and exits 0 when every check passed, 1 when
 * one failed, 2 when it could not run. The user needs the right to create a schema (or only to write the tables
 * of the given one).
 */
public final class StoreCheck {
    private static final List<String> OPTIONS = List.of("--url", "--user", "--password", "--schema");

    private StoreCheck() {}

    public static void main(String[] arguments) {
        System.exit(run(arguments, System.out));
    }

    /** @return the exit status */
    static int run(String[] arguments, PrintStream out) {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < arguments.length; i += 2) {
            if (!OPTIONS.contains(arguments[i]) || i + 1 == arguments.length) {
                return usage(out, "unknown or incomplete option '" + arguments[i] + "'");
            }
            options.put(arguments[i], arguments[i + 1]);
        }
        if (!options.containsKey("--url")) {
            return usage(out, "--url is required");
        }
        String url = options.get("--url");
        LocalTransactions.ConnectionSource database =
                () -> DriverManager.getConnection(url, options.get("--user"), options.get("--password"));
        try (CheckRun run = CheckRun.prepare(database, options.get("--schema"))) {
            out.println("Idempotency store check on " + run.description());
            boolean passed = run.runAll(result -> out.println((result.passed() ? "PASS " : "FAIL ")
                    + result.check()
                    + (result.passed() ? " (" + result.millis() + " ms)" : ": " + result.detail())));
            out.println(passed ? "Every check passed." : "Some checks failed: the filter's promises do not hold here.");
            return passed ? 0 : 1;
        } catch (ConfigurationException e) {
            out.println("FAIL the filter's tables: " + e.getMessage());
            return 1;
        } catch (SQLException e) {
            out.println("The store check could not run: " + e.getMessage());
            return 2;
        }
    }

    private static int usage(PrintStream out, String problem) {
        out.println(problem);
        out.println("usage: java -cp idempotency-store-check.jar:<jdbc driver jar> " + StoreCheck.class.getName()
                + " --url <jdbc url> [--user <user>] [--password <password>] [--schema <schema with the tables>]");
        return 2;
    }
}
