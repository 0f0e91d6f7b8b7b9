package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.faults.PublicEchoServlet;
import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A wrong setting must fail the deployment, not the first request: a typo must never weaken a guarantee. */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ConfigurationIT {
    @Deployment(name = "misspelled-setting", managed = false, testable = false)
    static WebArchive misspelledSetting() {
        return withSettings("misspelled.war", "operations = POST /api/accounts = open-account:v1\nretension = PT48H\n");
    }

    @Deployment(name = "safe-method", managed = false, testable = false)
    static WebArchive safeMethod() {
        return withSettings("safe-method.war", "operations = GET /api/accounts/{id} = read-account:v1\n");
    }

    @Deployment(name = "untested-engine", managed = false, testable = false)
    static WebArchive untestedEngine() {
        return withSettings(
                "untested-engine.war", "operations = POST /api/accounts = open-account:v1\ndatabase = mysql\n");
    }

    @Deployment(name = "untested-engine-allowed", managed = false, testable = false)
    static WebArchive untestedEngineAllowed() {
        return withSettings(
                "untested-allowed.war",
                "operations = POST /api/accounts = open-account:v1\ndatabase = mysql\nuntested-engine = allow\n");
    }

    @Deployment(name = "microprofile-config", managed = false, testable = false)
    static WebArchive microProfileConfig() {
        return withMicroProfileConfig("mp-config.war", "idempotency.key-header = X-Request-Key\n");
    }

    @Deployment(name = "microprofile-config-twice", managed = false, testable = false)
    static WebArchive microProfileConfigTwice() {
        return withMicroProfileConfig("mp-twice.war", "idempotency.rollout-mode = REQUIRED\n");
    }

    @Deployment(name = "microprofile-config-unknown", managed = false, testable = false)
    static WebArchive microProfileConfigUnknown() {
        return withMicroProfileConfig("mp-unknown.war", "idempotency.retension = PT48H\n");
    }

    @Deployment(name = "own-idempotency-property", managed = false, testable = false)
    static WebArchive ownIdempotencyProperty() {
        // An application with a property of its own under idempotency.*, and the jar, but no filter settings.
        return ShrinkWrap.create(WebArchive.class, "own-property.war")
                .addClass(PublicEchoServlet.class)
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsResource(
                        new StringAsset("idempotency.enabled = true\n"), "META-INF/microprofile-config.properties");
    }

    @ArquillianResource
    Deployer deployer;

    @Test
    void jarWithoutFilterSettingsLeavesAnApplicationWithItsOwnIdempotencyPropertiesAlone() throws Exception {
        deployer.deploy("own-idempotency-property");
        try {
            HttpResponse<String> echo = Api.send(
                    HttpRequest.newBuilder(TestServer.context("own-property").resolve("public/echo"))
                            .header("Idempotency-Key", "k-1")
                            .POST(HttpRequest.BodyPublishers.ofString("{}"))
                            .build());

            assertEquals(200, echo.statusCode(), echo.body());
            assertEquals("{}", echo.body());
            assertTrue(echo.headers().firstValue("Idempotency-Key-Expires").isEmpty(), "no filter is installed");
        } finally {
            deployer.undeploy("own-idempotency-property");
        }
    }

    @Test
    void settingFromMicroProfileConfigTakesEffect() throws Exception {
        deployer.deploy("microprofile-config");
        try {
            Api api = new Api(TestServer.context("mp-config").toURL());
            String key = UUID.randomUUID().toString();
            HttpRequest.Builder debit = api.request("alice", "api/accounts/1/debits")
                    .header("Content-Type", "application/json")
                    .header("X-Request-Key", key)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 1}"));

            HttpResponse<String> first = Api.send(debit.build());
            HttpResponse<String> retry = Api.send(debit.build());

            assertEquals(200, first.statusCode(), first.body());
            assertEquals(
                    "true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), retry.body());
        } finally {
            deployer.undeploy("microprofile-config");
        }
    }

    @Test
    void settingGivenInTheFileAndInMicroProfileConfigFailsTheDeploymentNamingBoth() {
        assertDeploymentFailsMentioning(
                "microprofile-config-twice", "in MicroProfile Config (idempotency.rollout-mode)");
    }

    @Test
    void unknownMicroProfileConfigPropertyFailsTheDeploymentAndTheMessageNamesIt() {
        assertDeploymentFailsMentioning("microprofile-config-unknown", "idempotency.retension");
    }

    @Test
    void unknownSettingFailsTheDeploymentAndTheMessageNamesIt() {
        assertDeploymentFailsMentioning("misspelled-setting", "retension");
    }

    @Test
    void anEngineThisBuildCannotRunFailsTheDeploymentSayingHowToOptIn() {
        assertDeploymentFailsMentioning("untested-engine", "set untested-engine = allow");
    }

    /** MySQL's SQL reads PostgreSQL's tables well enough to start; what matters is that the opt-in lets it. */
    @Test
    void anEngineThisBuildCannotRunStartsWhenTheUserOptsIn() {
        try {
            deployer.deploy("untested-engine-allowed");
        } finally {
            deployer.undeploy("untested-engine-allowed");
        }
    }

    @Test
    void coveringAGetFailsTheDeploymentAndTheMessageNamesTheMethod() {
        assertDeploymentFailsMentioning("safe-method", "'GET'");
    }

    private void assertDeploymentFailsMentioning(String deployment, String text) {
        try {
            Exception failure = assertThrows(Exception.class, () -> deployer.deploy(deployment));
            StringWriter trace = new StringWriter();
            failure.printStackTrace(new PrintWriter(trace));
            assertTrue(trace.toString().contains(text), trace.toString());
        } finally {
            try {
                deployer.undeploy(deployment);
            } catch (RuntimeException alreadyGone) {
                // A failed deployment may already have been removed by the container.
            }
        }
    }

    /** The test deployment, with extra settings in the WAR's MicroProfile Config file. */
    private static WebArchive withMicroProfileConfig(String archiveName, String properties) {
        return SampleDeployment.create(archiveName)
                .addAsResource(new StringAsset(properties), "META-INF/microprofile-config.properties");
    }

    private static WebArchive withSettings(String archiveName, String properties) {
        return SampleDeployment.create(archiveName)
                .addAsWebInfResource(new StringAsset(properties), "idempotency.properties");
    }
}
