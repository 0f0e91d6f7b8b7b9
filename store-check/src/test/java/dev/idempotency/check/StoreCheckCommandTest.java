package dev.idempotency.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.tx.LocalTransactions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store check as users run it: a separate process, one line per check, and its exit status. */
class StoreCheckCommandTest {
    private record Outcome(int status, String output) {
        long lines(String prefix) {
            return output.lines().filter(line -> line.startsWith(prefix)).count();
        }
    }

    @Test
    void passesEveryCheckOnPostgreSqlAndLeavesNoScratchSchema() throws Exception {
        String url = Databases.postgresUrl();

        Outcome outcome = storeCheck("--url", url, "--user", "postgres", "--password", "postgres");

        assertEquals(0, outcome.status(), outcome.output());
        assertTrue(outcome.output().startsWith("Idempotency store check on PostgreSQL 18."), outcome.output());
        assertEquals(StoreContract.checks().size(), outcome.lines("PASS "), outcome.output());
        assertEquals(
                0,
                count(
                        url,
                        "postgres",
                        "postgres",
                        "SELECT count(*) FROM information_schema.schemata"
                                + " WHERE schema_name LIKE 'idempotency_check_%'"));
    }

    @Test
    void passesEveryCheckOnMariaDb() throws Exception {
        Outcome outcome = storeCheck("--url", Databases.mariaDbUrl(), "--user", "root", "--password", "");

        assertEquals(0, outcome.status(), outcome.output());
        assertTrue(outcome.output().startsWith("Idempotency store check on MariaDB 11.4"), outcome.output());
        assertEquals(StoreContract.checks().size(), outcome.lines("PASS "), outcome.output());
    }

    @Test
    void namesTheFailingChecksOnAPostgreSqlTableWithoutItsPrimaryKey() throws Exception {
        String url = Databases.postgresUrl();
        String schema = tablesIn(url, "postgres", "postgres", "postgresql");
        Databases.execute(
                url,
                "postgres",
                "postgres",
                "ALTER TABLE " + schema + ".request_result DROP CONSTRAINT request_result_pkey");

        Outcome outcome = storeCheck("--url", url, "--user", "postgres", "--password", "postgres", "--schema", schema);

        assertEquals(1, outcome.status(), outcome.output());
        assertTrue(
                outcome.output().contains("FAIL a claim commits and a retry replays its response"), outcome.output());
        assertTrue(
                outcome.output().contains("FAIL ten concurrent claims of one key have one winner"), outcome.output());
        assertTrue(outcome.output().contains("PASS a message is recorded once"), outcome.output());
    }

    @Test
    void namesTheFailingCheckOnAMariaDbKeyWithACaseInsensitiveCollation() throws Exception {
        String url = Databases.mariaDbUrl();
        String schema = tablesIn(url, "root", "", "mariadb");
        Databases.execute(
                url,
                "root",
                "",
                "ALTER TABLE " + schema + ".request_result MODIFY request_key"
                        + " VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL");

        Outcome outcome = storeCheck("--url", url, "--user", "root", "--password", "", "--schema", schema);

        assertEquals(1, outcome.status(), outcome.output());
        assertTrue(
                outcome.output()
                        .contains(
                                "FAIL keys compare byte by byte (case, trailing space, composed and" + " decomposed)"),
                outcome.output());
        assertEquals(StoreContract.checks().size() - 1, outcome.lines("PASS "), outcome.output());
    }

    @Test
    void explainsItsUsageWithoutAUrl() throws Exception {
        Outcome outcome = storeCheck("--user", "postgres");

        assertEquals(2, outcome.status(), outcome.output());
        assertTrue(outcome.output().contains("usage: java -cp idempotency-store-check.jar"), outcome.output());
    }

    /** The filter's tables, made from its DDL in a new schema, as an adopting team's migration would. */
    private static String tablesIn(String url, String user, String password, String engine) throws Exception {
        String schema = "check_target_" + UUID.randomUUID().toString().substring(0, 8);
        Databases.execute(url, user, password, "CREATE SCHEMA " + schema);
        SqlDialect dialect = SqlDialect.named(engine);
        new FilterSchema(
                        new LocalTransactions(() -> DriverManager.getConnection(url, user, password), dialect, schema),
                        dialect,
                        schema)
                .createMissing();
        return schema;
    }

    private static long count(String url, String user, String password, String sql) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    private static Outcome storeCheck(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                StoreCheck.class.getName()));
        command.addAll(List.of(arguments));
        // The report is standard output; logs (the JDBC driver's, the filter's) go to standard error.
        Path errors = Files.createTempFile("store-check", ".log");
        Process process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.to(errors.toFile()))
                .start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the store check did not end: " + output);
        String logged = Files.readString(errors);
        Files.delete(errors);
        return new Outcome(process.exitValue(), output + (logged.isEmpty() ? "" : "\n(standard error)\n" + logged));
    }
}
