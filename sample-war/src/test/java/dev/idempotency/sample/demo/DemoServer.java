package dev.idempotency.sample.demo;

import dev.idempotency.sample.support.LocalServer;
import dev.idempotency.sample.support.PostgresExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The demo: a real PostgreSQL 18.6 and a real WildFly with the sample WAR, serving {@code
 * http://localhost:8080/sample/api} until interrupted. Run it with {@code mvn -P demo verify -DskipTests}, and
 * with {@code -Ddemo.port.offset=100} to move WildFly's ports (to 8180 and 10090) where 8080 or 9990 are taken. It
 * prints how to reach the database, whose port is chosen at random, so the tour in docs/tour.md can
 * look at the records.
 */
public final class DemoServer {
    /** Moves every WildFly port (HTTP 8080, management 9990) by this much, where those are taken. */
    static final String PORT_OFFSET_PROPERTY = "demo.port.offset";

    /** The credentials WildFly's SampleDS uses (sample-war/src/main/wildfly/configure.cli). */
    static final String DATABASE_USER = "postgres";

    static final String DATABASE_PASSWORD = "postgres";
    static final String DATABASE_NAME = "postgres";

    private DemoServer() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path war = Path.of(System.getProperty("sample.war"));
        int portOffset = Integer.getInteger(PORT_OFFSET_PROPERTY, 0);
        System.out.println("Starting PostgreSQL 18.6 and WildFly with the sample...");
        LocalServer server = LocalServer.start(jbossHome, "demo-server", Map.of("sample.war", war), portOffset);
        System.out.println("WildFly's log is " + server.console());
        databaseLines(PostgresExtension.start(false).getPort()).forEach(System.out::println);
        printScenario("http://localhost:" + (8080 + portOffset) + "/sample");
        server.awaitExit();
    }

    /** How to reach the demo's database on this port, as the demo prints it: JDBC, then psql. */
    public static List<String> databaseLines(int port) {
        return List.of(
                "",
                "The database is PostgreSQL 18.6 on host localhost, port " + port + ", database " + DATABASE_NAME
                        + ", user " + DATABASE_USER + ", password " + DATABASE_PASSWORD + ":",
                "  JDBC: " + jdbcUrl(port),
                "  psql: " + psqlCommand(port));
    }

    public static String jdbcUrl(int port) {
        return "jdbc:postgresql://localhost:" + port + "/" + DATABASE_NAME + "?user=" + DATABASE_USER + "&password="
                + DATABASE_PASSWORD;
    }

    public static String psqlCommand(int port) {
        return "psql postgresql://" + DATABASE_USER + ":" + DATABASE_PASSWORD + "@localhost:" + port + "/"
                + DATABASE_NAME;
    }

    private static void printScenario(String sample) {
        String api = sample + "/api";
        System.out.println("\nThe sample is deployed at " + api + " (users alice/alice and bob/bob).");
        System.out.println("The tour, step by step with the answers to expect: docs/tour.md");
        System.out.println(
                "  curl -i -u alice:alice -H 'Content-Type: application/json' -H 'Idempotency-Key: checkout-42'"
                        + " -d '{\"amount\": 100}' " + api + "/accounts/1/debits");
        System.out.println("\nRollout modes and keyless traffic (user operator/operator): docs/rollout.md");
        System.out.println("  curl -s -u operator:operator " + sample + "/admin/idempotency");
        System.out.println("\nPress Ctrl+C to stop WildFly and PostgreSQL.");
    }
}
