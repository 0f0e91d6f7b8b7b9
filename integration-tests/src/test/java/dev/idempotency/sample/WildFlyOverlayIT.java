package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Adoption from the server's side, the WAR untouched: a WildFly deployment overlay adds the filter's jar and its
 * settings file to the foreign inventory WAR as it is deployed, and the application is covered (replay, one
 * execution); without the overlay the same WAR is not. The overlay is made with the server's own CLI, as an
 * operator would (docs/adopting-a-built-war.md, "From the server's side").
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class WildFlyOverlayIT {
    private static final String WAR = "overlaid-inventory.war";
    private static final String ADD_ITEM = "{\"name\": \"nut\", \"quantity\": 5}";

    @Deployment(name = "untouched", managed = false, testable = false)
    static WebArchive untouchedInventory() throws Exception {
        Database.installFilterTables();
        return ForeignWarIT.inventory(WAR);
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void anOverlayAddsTheJarAndSettingsToAnUntouchedWarAndCoversIt() throws Exception {
        String key = UUID.randomUUID().toString();
        deployer.deploy("untouched");
        try {
            HttpResponse<String> bare = addItem(key);
            HttpResponse<String> bareRetry = addItem(key);
            assertEquals(
                    "", bareRetry.headers().firstValue("Idempotent-Replayed").orElse(""), "not covered yet");
            assertEquals(201, bare.statusCode(), bare.body());
        } finally {
            deployer.undeploy("untouched");
        }

        cli("deployment-overlay add --name=idempotency --content=WEB-INF/lib/idempotency-filter.jar="
                + System.getProperty("filter.jar") + ",WEB-INF/idempotency.properties="
                + Path.of("src/test/resources/foreign/inventory-idempotency.properties")
                        .toAbsolutePath()
                + " --deployments=" + WAR);
        try {
            deployer.deploy("untouched");
            try {
                HttpResponse<String> first = addItem(key);
                HttpResponse<String> retry = addItem(key);

                assertEquals(201, first.statusCode(), first.body());
                assertEquals(
                        "true",
                        retry.headers().firstValue("Idempotent-Replayed").orElse(""),
                        retry.body());
                assertEquals(first.body(), retry.body());
                assertEquals(1, Database.recordCountForKey(key));
            } finally {
                deployer.undeploy("untouched");
            }
        } finally {
            cli("deployment-overlay remove --name=idempotency");
        }
    }

    private static HttpResponse<String> addItem(String key) {
        return Api.send(
                HttpRequest.newBuilder(TestServer.context("overlaid-inventory").resolve("api/items"))
                        .header("Content-Type", "application/json")
                        .header("X-Gateway-User", "carol")
                        .header("Idempotency-Key", key)
                        .POST(HttpRequest.BodyPublishers.ofString(ADD_ITEM))
                        .build());
    }

    /** One command of WildFly's CLI against the running server. */
    private static void cli(String command) throws IOException, InterruptedException {
        Process cli = new ProcessBuilder(
                        Path.of(System.getProperty("jboss.home"), "bin", "jboss-cli.sh")
                                .toString(),
                        "--connect",
                        "--command=" + command)
                .redirectErrorStream(true)
                .start();
        String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!cli.waitFor(120, TimeUnit.SECONDS) || cli.exitValue() != 0) {
            throw new IllegalStateException("jboss-cli " + command + " failed: " + output);
        }
    }
}
