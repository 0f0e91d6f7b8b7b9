package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import dev.idempotency.sample.support.payara.Asadmin;
import java.io.File;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Adoption from the server's side on Payara, the WAR untouched: the operator deploys the foreign inventory WAR
 * with the filter's jar as an application library ({@code asadmin deploy --libraries}), and gives the settings as
 * MicroProfile Config properties of that application ({@code set-config-property --source=application}) before
 * enabling it. The application is then covered (replay, one record). Runs in the build's Payara run only.
 */
@Tag("payara")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
class PayaraLibrariesIT {
    private static final String NAME = "lib-inventory";
    private static final String ADD_ITEM = "{\"name\": \"washer\", \"quantity\": 7}";

    @Test
    void theFilterJarAsAnApplicationLibraryWithApplicationConfigCoversAnUntouchedWar() throws Exception {
        Database.installFilterTables();
        Path war = Files.createTempDirectory("untouched").resolve(NAME + ".war");
        ForeignWarIT.inventory(NAME + ".war").as(ZipExporter.class).exportTo(new File(war.toString()), true);
        Path home = Asadmin.home();

        Asadmin.run(
                home,
                300,
                "deploy",
                "--enabled=false",
                "--name",
                NAME,
                "--contextroot",
                NAME,
                "--libraries",
                System.getProperty("filter.jar"),
                war.toString());
        try {
            setting(home, "idempotency.operations", "POST /api/items = add-item:v1");
            setting(home, "idempotency.scope-header", "X-Gateway-User");
            Asadmin.run(home, 300, "enable", NAME);

            String key = UUID.randomUUID().toString();
            HttpResponse<String> first = addItem(key);
            HttpResponse<String> retry = addItem(key);

            assertEquals(201, first.statusCode(), first.body());
            assertEquals(
                    "true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), retry.body());
            assertEquals(first.body(), retry.body());
            assertEquals(1, Database.recordCountForKey(key));
        } finally {
            Asadmin.run(home, 120, "undeploy", NAME);
        }
    }

    private static void setting(Path home, String name, String value) throws Asadmin.Failure {
        Asadmin.run(
                home,
                60,
                "set-config-property",
                "--source=application",
                "--sourceName=" + NAME,
                "--propertyName=" + name,
                "--propertyValue=" + value);
    }

    private static HttpResponse<String> addItem(String key) {
        return Api.send(HttpRequest.newBuilder(TestServer.context(NAME).resolve("api/items"))
                .header("Content-Type", "application/json")
                .header("X-Gateway-User", "carol")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(ADD_ITEM))
                .build());
    }
}
