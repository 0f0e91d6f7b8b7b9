package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the filter costs in SQL, counted from PostgreSQL's own statement log (log_statement = all): a first
 * execution adds at most two statements (the claim and the completion) to the application's own, and a
 * replay is one statement, the claim, which finds the key taken and returns the record committed before it
 * began; it runs no application statement at all. Counts are deterministic, so this is a test, not a benchmark.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class StatementCountIT {
    private static final List<String> TRANSACTION_CONTROL = List.of("begin", "commit", "rollback");
    private static final Pattern STATEMENT = Pattern.compile("LOG:  (statement|execute [^:]*): (.*)");

    @Deployment(testable = false)
    static WebArchive deployment() throws IOException {
        // No rollout refresh inside the measured windows.
        return SampleDeployment.withExtraSettings("sample.war", "rollout-refresh = PT10M");
    }

    @ArquillianResource
    URL base;

    Api api;
    long account;

    @BeforeEach
    void warmAccount() {
        api = new Api(base);
        account = api.openAccount("alice", 1_000_000);
        // Warm every path once, so prepared statements and caches are the same in every measured window.
        debit(null);
        String warm = UUID.randomUUID().toString();
        debit(warm);
        debit(warm);
    }

    @Test
    void firstExecutionAddsAtMostTwoStatementsAndAReplayIsTheClaimAlone() throws Exception {
        String key = UUID.randomUUID().toString();

        List<String> application = statementsDuring(() -> debit(null));
        List<String> first = statementsDuring(() -> debit(key));
        List<String> replay = statementsDuring(() -> debit(key));

        String report = "\napplication alone: " + application + "\nfirst execution: " + first + "\nreplay: " + replay;
        assertTrue(application.stream().anyMatch(s -> s.contains("account")), report);
        assertTrue(first.size() - application.size() <= 2, report);
        assertTrue(first.containsAll(application), report);
        assertEquals(
                1,
                first.stream()
                        // The claim: an insert inside a query that also returns a record committed before it.
                        .filter(s -> s.startsWith("with claim as (insert into request_result"))
                        .count(),
                report);
        assertEquals(
                1,
                first.stream()
                        .filter(s -> s.startsWith("update request_result"))
                        .count(),
                report);
        assertEquals(0, replay.stream().filter(s -> s.contains("account")).count(), report);
        assertEquals(
                1, replay.size(), "a replay is the claim that finds the key taken and returns its record" + report);
        assertTrue(replay.get(0).startsWith("with claim as (insert into request_result"), report);
    }

    private HttpResponse<String> debit(String key) {
        HttpResponse<String> response =
                api.post("alice", "api/accounts/" + account + "/debits", key, "{\"amount\": 1}");
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    /**
     * The statements other sessions ran between two marker queries of this test's own session, lower-cased,
     * without transaction control (the application's transaction and the filter's cost one BEGIN and one
     * COMMIT each), without the pool's connection check (an empty query when a connection is taken) and
     * without the driver resetting {@code application_name} when the pool takes it back (once per request
     * either way).
     */
    private static List<String> statementsDuring(Supplier<?> action)
            throws SQLException, IOException, InterruptedException {
        String marker = UUID.randomUUID().toString();
        Database.execute("SELECT 'window-start-" + marker + "'");
        action.get();
        Database.execute("SELECT 'window-end-" + marker + "'");
        List<String> lines = awaitLogLine("window-end-" + marker);
        int start = indexOf(lines, "window-start-" + marker);
        int end = indexOf(lines, "window-end-" + marker);
        return lines.subList(start + 1, end).stream()
                .map(STATEMENT::matcher)
                .filter(java.util.regex.Matcher::find)
                .map(m -> m.group(2).trim().toLowerCase(java.util.Locale.ROOT))
                .filter(sql -> !sql.isEmpty() && !TRANSACTION_CONTROL.contains(sql))
                .filter(sql -> !sql.startsWith("set application_name"))
                // The sample's hourly processed-message purge may run in any window; it is not the request's.
                .filter(sql -> !sql.contains("processed_message"))
                .toList();
    }

    private static List<String> awaitLogLine(String text) throws IOException, InterruptedException {
        for (int attempt = 0; attempt < 600; attempt++) { // up to a minute
            List<String> lines = Files.readAllLines(PostgresExtension.statementLog());
            if (indexOf(lines, text) >= 0) {
                return lines;
            }
            Thread.sleep(100); // the server's logging collector writes asynchronously
        }
        throw new AssertionError(text + " never reached " + PostgresExtension.statementLog());
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = lines.size() - 1; i >= 0; i--) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
