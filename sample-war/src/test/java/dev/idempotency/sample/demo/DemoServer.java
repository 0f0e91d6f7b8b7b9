package dev.idempotency.sample.demo;

import dev.idempotency.sample.support.LocalServer;
import java.nio.file.Path;
import java.util.Map;

/**
 * The demo: a real PostgreSQL 18.6 and a real WildFly with the sample WAR, serving {@code
 * http://localhost:8080/sample/api} until interrupted. Run it with {@code mvn -P demo verify -DskipTests}.
 */
public final class DemoServer {
    private static final String API = "http://localhost:8080/sample/api";

    private DemoServer() {}

    public static void main(String[] args) throws Exception {
        Path jbossHome = Path.of(System.getProperty("jboss.home"));
        Path war = Path.of(System.getProperty("sample.war"));
        System.out.println("Starting PostgreSQL 18.6 and WildFly with the sample...");
        LocalServer server = LocalServer.start(jbossHome, "demo-server", Map.of("sample.war", war));
        System.out.println("WildFly's log is " + server.console());
        printScenario();
        server.awaitExit();
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
        System.out.println("\nRollout modes and keyless traffic (user operator/operator): docs/rollout.md");
        System.out.println("  curl -s -u operator:operator http://localhost:8080/sample/admin/idempotency");
        System.out.println("\nPress Ctrl+C to stop WildFly and PostgreSQL.");
    }
}
