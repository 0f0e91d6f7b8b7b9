package dev.idempotency.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.tx.LocalTransactions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The store check as users run it: a separate process, one line per check, and its exit status. */
class StoreCheckCommandTest {
    private static final EngineConfig POSTGRESQL = PostgreSqlConfig.embedded();
    private static final EngineConfig MARIADB = MariaDbConfig.startedOnAnyPort();

    private record Outcome(int status, String output) {
        long lines(String prefix) {
            return output.lines().filter(line -> line.startsWith(prefix)).count();
        }
    }

    @Test
    void passesEveryCheckOnPostgreSqlAndLeavesNoScratchSchema() throws Exception {
        Outcome outcome = storeCheck(POSTGRESQL);

        assertEquals(0, outcome.status(), outcome.output());
        assertTrue(outcome.output().startsWith("Idempotency store check on PostgreSQL 18."), outcome.output());
        assertEquals(StoreContract.checks().size(), outcome.lines("PASS "), outcome.output());
        assertEquals(
                0,
                count(
                        POSTGRESQL,
                        "SELECT count(*) FROM information_schema.schemata"
                                + " WHERE schema_name LIKE 'idempotency_check_%'"));
    }

    @Test
    void passesEveryCheckOnMariaDb() throws Exception {
        Outcome outcome = storeCheck(MARIADB);

        assertEquals(0, outcome.status(), outcome.output());
        assertTrue(outcome.output().startsWith("Idempotency store check on MariaDB 11.4"), outcome.output());
        assertEquals(StoreContract.checks().size(), outcome.lines("PASS "), outcome.output());
    }

    @Test
    void namesTheFailingChecksOnAPostgreSqlTableWithoutItsPrimaryKey() throws Exception {
        String schema = tablesIn(POSTGRESQL);
        POSTGRESQL.execute("ALTER TABLE " + schema + ".request_result DROP CONSTRAINT request_result_pkey");

        Outcome outcome = storeCheck(POSTGRESQL, "--schema", schema);

        assertEquals(1, outcome.status(), outcome.output());
        assertTrue(
                outcome.output().contains("FAIL a claim commits and a retry replays its response"), outcome.output());
        assertTrue(
                outcome.output().contains("FAIL ten concurrent claims of one key have one winner"), outcome.output());
        assertTrue(outcome.output().contains("PASS a message is recorded once"), outcome.output());
    }

    @Test
    void namesTheFailingCheckOnAMariaDbKeyWithACaseInsensitiveCollation() throws Exception {
        String schema = tablesIn(MARIADB);
        MARIADB.execute("ALTER TABLE " + schema + ".request_result MODIFY request_key"
                + " VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL");

        Outcome outcome = storeCheck(MARIADB, "--schema", schema);

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
    private static String tablesIn(EngineConfig engine) throws Exception {
        String schema = engine.createNamespace(
                "check_target_" + UUID.randomUUID().toString().substring(0, 8));
        SqlDialect dialect = Engine.dialectNamed(engine.name());
        new FilterSchema(new LocalTransactions(engine::connect, dialect, schema), dialect, schema).createMissing();
        return schema;
    }

    /** The command on the engine's default database, with its user and password, and {@code more} arguments. */
    private static Outcome storeCheck(EngineConfig engine, String... more) throws Exception {
        List<String> arguments = new ArrayList<>(
                List.of("--url", engine.url(), "--user", engine.user(), "--password", engine.password()));
        arguments.addAll(List.of(more));
        return storeCheck(arguments.toArray(String[]::new));
    }

    private static long count(EngineConfig engine, String sql) throws Exception {
        try (Connection connection = engine.connect();
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
