package dev.idempotency.sample.tour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.demo.DemoServer;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import java.io.File;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The curl tour of docs/tour.md, replayed against the sample exactly as the demo deploys it (its own
 * {@code idempotency.properties}, {@code debit:v1} encrypted), on a WildFly of its own beside the one Arquillian
 * manages. Every command's answer must be what the page shows, and the database lines the page shows must be the
 * ones the demo prints, and must connect.
 */
// Registered so the database starts as every container test's does, with its statement log, whichever runs first.
@ExtendWith(PostgresExtension.class)
class TourIT {
    private static final Path PAGE = Path.of("..", "docs", "tour.md");
    private static final String SECTION = "# Try it with curl";
    private static final String PAGE_ORIGIN = "http://localhost:8080";
    private static final int PORT_OFFSET = 200;
    private static final String ORIGIN = "http://localhost:" + (8080 + PORT_OFFSET);
    private static final Pattern PAGE_PORT = Pattern.compile("port (\\d+),");
    private static final Pattern ACCOUNT_LOCATION = Pattern.compile("/accounts/(\\d+)$");
    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static LocalServer demo;
    private static TourPage page;
    private static int databasePort;

    @BeforeAll
    static void deployTheSampleAsTheDemoDoes() throws Exception {
        page = TourPage.read(PAGE, SECTION);
        demo = LocalServer.start(
                Path.of(System.getProperty("jboss.home")),
                "tour-server",
                Map.of("sample.war", Path.of(System.getProperty("sample.war"))),
                PORT_OFFSET);
        databasePort = PostgresExtension.start(false).getPort();
        // The page starts from a fresh database; the container tests share this one, so put back what the
        // tour changes: account 1's balance and the records of the page's keys.
        resetTheTourData();
    }

    @AfterAll
    static void stopAndLeaveTheDataAsFound() throws Exception {
        if (demo != null) {
            demo.close();
            resetTheTourData();
        }
    }

    @Test
    void theDatabaseLinesOnThePageAreTheOnesTheDemoPrints() {
        String shown = page.blocks().get(0).text();
        Matcher port = PAGE_PORT.matcher(shown);
        assertTrue(port.find(), "the page's first block shows the demo's database port: " + shown);

        String printed = String.join("\n", DemoServer.databaseLines(Integer.parseInt(port.group(1))))
                .strip();

        assertEquals(printed, shown);
    }

    @Test
    void thePrintedJdbcLineConnects() throws SQLException {
        try (Connection connection = DriverManager.getConnection(DemoServer.jdbcUrl(databasePort));
                ResultSet result = connection.createStatement().executeQuery("SELECT count(*) FROM request_result")) {
            assertTrue(result.next());
        }
    }

    @Test
    void thePrintedPsqlLineConnectsWherePsqlIsInstalled() throws Exception {
        if (!psqlInstalled()) {
            return; // psql is optional for the demo; the JDBC line is proven above.
        }
        List<String> command = new ArrayList<>(
                Arrays.asList(DemoServer.psqlCommand(databasePort).split(" ")));
        command.addAll(List.of("-At", "-c", "SELECT 'connected'"));
        Process psql = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(psql.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, psql.waitFor(), output);
        assertEquals("connected", output.strip());
    }

    @Test
    void everyCommandOfTheTourAnswersWhatThePageShows() throws Exception {
        Map<String, String> varying = new LinkedHashMap<>();
        int commands = 0;
        int records = 0;
        List<TourPage.Block> blocks = page.blocks();
        for (int i = 1; i < blocks.size(); i += 2) {
            TourPage.Block command = blocks.get(i);
            TourPage.Block shown = blocks.get(i + 1);
            assertEquals("", shown.language(), "a " + command.language() + " block is followed by its output");
            switch (command.language()) {
                case "sh" -> {
                    replay(CurlCommand.parse(command.text()), shown.text(), varying);
                    commands++;
                }
                case "sql" -> {
                    query(command.text(), shown.text(), varying);
                    records++;
                }
                default -> throw new AssertionError("a block the tour cannot run: " + command);
            }
        }
        assertEquals(7, commands, "the tour's curl commands");
        assertEquals(1, records, "the tour's record queries");
    }

    private static void replay(CurlCommand curl, String shown, Map<String, String> varying) throws Exception {
        HttpResponse<String> response =
                CLIENT.send(curl.toRequest(PAGE_ORIGIN, ORIGIN), HttpResponse.BodyHandlers.ofString());
        String context = curl.url() + " " + curl.data();
        List<String> lines = shown.lines().toList();
        int bodyStart = 0;
        if (lines.get(0).startsWith("HTTP/")) {
            assertEquals(Integer.parseInt(lines.get(0).split(" ")[1]), response.statusCode(), context);
            int blank = lines.indexOf("");
            for (String header : lines.subList(1, blank)) {
                String name = header.substring(0, header.indexOf(':'));
                String value = header.substring(header.indexOf(':') + 1).trim();
                String actual = response.headers().firstValue(name).orElse("(absent)");
                if (name.equals("Location")) {
                    learnTheNewAccount(value, actual, varying);
                }
                assertEquals(normalized(value, varying), actual, name + " of " + context);
            }
            bodyStart = blank + 1;
        } else {
            assertEquals(200, response.statusCode(), context);
        }
        String body = String.join("\n", lines.subList(bodyStart, lines.size()));
        assertEquals(normalized(body, varying), response.body(), "body of " + context);
    }

    /**
     * The one thing on the page that truly varies: the id the server gives a new account, 100 on a fresh database
     * and higher on the container tests' shared one. Every later mention of the page's id means the real one.
     */
    private static void learnTheNewAccount(String shown, String actual, Map<String, String> varying) {
        Matcher shownId = ACCOUNT_LOCATION.matcher(shown);
        Matcher actualId = ACCOUNT_LOCATION.matcher(actual);
        if (shownId.find() && actualId.find()) {
            varying.put("/accounts/" + shownId.group(1), "/accounts/" + actualId.group(1));
            varying.put("\"id\":" + shownId.group(1), "\"id\":" + actualId.group(1));
        }
    }

    private static String normalized(String shown, Map<String, String> varying) {
        String text = shown.replace(PAGE_ORIGIN, ORIGIN);
        for (Map.Entry<String, String> value : varying.entrySet()) {
            text = text.replace(value.getKey(), value.getValue());
        }
        return text;
    }

    /** Runs the page's query and compares it with the page's {@code \x} (expanded) psql output of one record. */
    private static void query(String sql, String shown, Map<String, String> varying) throws SQLException {
        List<String> lines = shown.lines().toList();
        assertTrue(lines.get(0).startsWith("-[ RECORD 1 ]"), shown);
        try (Connection connection = DriverManager.getConnection(DemoServer.jdbcUrl(databasePort));
                ResultSet result = connection.createStatement().executeQuery(sql)) {
            assertTrue(result.next(), "the page's query finds its record: " + sql);
            for (String line : lines.subList(1, lines.size())) {
                int bar = line.indexOf(" | ");
                String column = line.substring(0, bar).trim();
                assertEquals(normalized(line.substring(bar + 3), varying), result.getString(column), column);
            }
            assertFalse(result.next(), "the page shows one record");
        }
    }

    private static void resetTheTourData() throws SQLException, IOException {
        List<String> keys = new ArrayList<>();
        for (TourPage.Block block : page.blocks()) {
            if (block.language().equals("sh")) {
                String key = CurlCommand.parse(block.text()).headers().get("Idempotency-Key");
                if (key != null && !keys.contains(key)) {
                    keys.add(key);
                }
            }
        }
        try (Connection connection = DriverManager.getConnection(DemoServer.jdbcUrl(databasePort))) {
            connection.createStatement().executeUpdate("UPDATE account SET balance = 1000 WHERE id = 1");
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM request_result WHERE scope = 'alice' AND request_key = ?")) {
                for (String key : keys) {
                    delete.setString(1, key);
                    delete.executeUpdate();
                }
            }
        }
    }

    private static boolean psqlInstalled() throws IOException {
        String path = System.getenv().getOrDefault("PATH", "");
        try (Stream<String> directories = Arrays.stream(path.split(File.pathSeparator))) {
            return directories.anyMatch(directory -> Files.isExecutable(Path.of(directory, "psql")));
        }
    }
}
