package dev.idempotency.sample.bench;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import java.io.File;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * SQLite's single writer next to PostgreSQL, in one run on one WildFly: the sample's covered debit (a fresh key
 * each time: a first execution) and its replay, on PostgreSQL 18.6 (durable, as {@link LoadBenchmark}) and on
 * SQLite in a file (WAL, the driver's default {@code synchronous}, read back and printed). Each client debits
 * an account of its own, so on PostgreSQL clients never wait for each other, and on SQLite every write waits for
 * the file's one write lock.
 *
 * <p>Run with {@code mvn -P bench verify -DskipTests -Dbench.main=EngineBenchmark}; {@code -Dbench.seconds},
 * {@code -Dbench.warmup} and {@code -Dbench.clients} as for the load benchmark.
 */
public final class EngineBenchmark {
    private static final String SETTINGS =
            "operations = POST /api/accounts = open-account:v1 ;" + " POST /api/accounts/{id}/debits = debit:v1\n";

    private EngineBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path sampleWar = Path.of(System.getProperty("sample.war"));
        int seconds = Integer.getInteger("bench.seconds", 15);
        int warmup = Integer.getInteger("bench.warmup", 5);
        int[] clientCounts = Arrays.stream(
                        System.getProperty("bench.clients", "1,4,16").split(","))
                .mapToInt(Integer::parseInt)
                .toArray();

        PostgresExtension.startForBenchmark(true);
        Path postgresWar = LoadBenchmark.benchmarkWar(sampleWar, "engine-pg.war", SETTINGS);
        Path sqliteWar = sqliteWar(sampleWar);
        try (LocalServer server = LocalServer.start(
                jbossHome, "engine-bench-server", Map.of("pg.war", postgresWar, "sqlite.war", sqliteWar))) {
            Api postgres = new Api(new URL("http://localhost:8080/pg/"));
            Api sqlite = new Api(new URL("http://localhost:8080/sqlite/"));
            String sqliteDurability =
                    sqliteDurability(jbossHome.getParent().resolve("engine-bench-server/data/idempotency-sqlite.db"));
            for (int round = 0; round < 2; round++) {
                runScenarios(postgres, sqlite, Arrays.stream(clientCounts).max().orElse(1), warmup, 0);
            }
            List<LoadBenchmark.Result> results = new ArrayList<>();
            for (int clients : clientCounts) {
                results.addAll(runScenarios(postgres, sqlite, clients, seconds, warmup));
            }
            System.out.println();
            System.out.println("Closed loop, " + warmup + " s warm-up and " + seconds + " s measured per scenario;"
                    + " client, WildFly and both databases on one machine ("
                    + Runtime.getRuntime().availableProcessors() + " cores). PostgreSQL durable (fsync and"
                    + " synchronous_commit on); SQLite " + sqliteDurability + ".");
            System.out.println();
            System.out.println("| clients | PostgreSQL first execution (req/s) | SQLite first execution (req/s) |"
                    + " SQLite / PostgreSQL | PostgreSQL replay | SQLite replay | SQLite / PostgreSQL |");
            System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
            for (int clients : clientCounts) {
                double pgFirst = throughput(results, clients, "PostgreSQL first");
                double liteFirst = throughput(results, clients, "SQLite first");
                double pgReplay = throughput(results, clients, "PostgreSQL replay");
                double liteReplay = throughput(results, clients, "SQLite replay");
                System.out.printf(
                        "| %d | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f |%n",
                        clients, pgFirst, liteFirst, liteFirst / pgFirst, pgReplay, liteReplay, liteReplay / pgReplay);
            }
        }
    }

    private static List<LoadBenchmark.Result> runScenarios(
            Api postgres, Api sqlite, int clients, int seconds, int warmup) throws Exception {
        long[] pgAccounts = new long[clients];
        long[] liteAccounts = new long[clients];
        String[] pgKeys = new String[clients];
        String[] liteKeys = new String[clients];
        for (int i = 0; i < clients; i++) {
            pgAccounts[i] = postgres.openAccount("alice", Long.MAX_VALUE / 4);
            liteAccounts[i] = sqlite.openAccount("alice", Long.MAX_VALUE / 4);
            pgKeys[i] = UUID.randomUUID().toString();
            liteKeys[i] = UUID.randomUUID().toString();
            LoadBenchmark.debit(postgres, pgAccounts[i], pgKeys[i]);
            LoadBenchmark.debit(sqlite, liteAccounts[i], liteKeys[i]);
        }
        return List.of(
                LoadBenchmark.run(
                        "PostgreSQL first",
                        clients,
                        seconds,
                        warmup,
                        i -> LoadBenchmark.debit(postgres, pgAccounts[i], LoadBenchmark.newKey())),
                LoadBenchmark.run(
                        "SQLite first",
                        clients,
                        seconds,
                        warmup,
                        i -> LoadBenchmark.debit(sqlite, liteAccounts[i], LoadBenchmark.newKey())),
                LoadBenchmark.run(
                        "PostgreSQL replay",
                        clients,
                        seconds,
                        warmup,
                        i -> LoadBenchmark.debit(postgres, pgAccounts[i], pgKeys[i])),
                LoadBenchmark.run(
                        "SQLite replay",
                        clients,
                        seconds,
                        warmup,
                        i -> LoadBenchmark.debit(sqlite, liteAccounts[i], liteKeys[i])));
    }

    /**
     * The sample on WildFly's SqliteDS: Hibernate's community SQLite dialect in the WAR, the sample's table made
     * by Hibernate and the filter's by the filter ({@code schema = create}), since the server's data directory
     * is new.
     */
    private static Path sqliteWar(Path sampleWar) throws Exception {
        String persistence = Files.readString(Path.of(System.getProperty("sample.classes"), "META-INF/persistence.xml"))
                .replace("java:jboss/datasources/SampleDS", "java:jboss/datasources/SqliteDS")
                .replace(
                        "<property name=\"jakarta.persistence.schema-generation.database.action\" value=\"none\"/>",
                        "<property name=\"jakarta.persistence.schema-generation.database.action\" value=\"create\"/>"
                                + "<property name=\"hibernate.dialect\""
                                + " value=\"org.hibernate.community.dialect.SQLiteDialect\"/>");
        Path war = sampleWar.resolveSibling("bench-engine-sqlite.war");
        WebArchive archive = ShrinkWrap.create(ZipImporter.class, "sqlite.war")
                .importFrom(sampleWar.toFile())
                .as(WebArchive.class);
        archive.delete("/WEB-INF/classes/dev/idempotency/sample/messaging");
        archive.delete("/WEB-INF/classes/dev/idempotency/sample/SchemaInstaller.class");
        archive.delete("/WEB-INF/classes/META-INF/persistence.xml");
        archive.addAsResource(new StringAsset(persistence), "META-INF/persistence.xml")
                .addAsLibrary(new File(System.getProperty("hibernate.community.jar")))
                .addAsWebInfResource(new StringAsset(SETTINGS + "schema = create\n"), "idempotency.properties")
                .as(ZipExporter.class)
                .exportTo(new File(war.toString()), true);
        return war;
    }

    /** The journal mode the file keeps, and the synchronous level a connection gets by default. */
    private static String sqliteDurability(Path file) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement statement = connection.createStatement()) {
            return "journal_mode=" + pragma(statement, "journal_mode") + ", synchronous="
                    + pragma(statement, "synchronous") + " (0 OFF, 1 NORMAL, 2 FULL)";
        }
    }

    private static String pragma(Statement statement, String name) throws Exception {
        try (ResultSet row = statement.executeQuery("PRAGMA " + name)) {
            row.next();
            return row.getString(1);
        }
    }

    private static double throughput(List<LoadBenchmark.Result> results, int clients, String scenario) {
        return results.stream()
                .filter(result ->
                        result.clients() == clients && result.scenario().equals(scenario))
                .mapToDouble(LoadBenchmark.Result::throughput)
                .findFirst()
                .orElse(Double.NaN);
    }
}
