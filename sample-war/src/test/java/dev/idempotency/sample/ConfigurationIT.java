package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
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

    @ArquillianResource
    Deployer deployer;

    @Test
    void unknownSettingFailsTheDeploymentAndTheMessageNamesIt() {
        assertDeploymentFailsMentioning("misspelled-setting", "retension");
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

    private static WebArchive withSettings(String archiveName, String properties) {
        return SampleDeployment.create(archiveName)
                .addAsWebInfResource(new StringAsset(properties), "idempotency.properties");
    }
}
