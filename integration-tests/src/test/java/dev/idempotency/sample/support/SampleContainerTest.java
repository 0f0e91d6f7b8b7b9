package dev.idempotency.sample.support;

import java.net.URL;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The common set-up of the container tests that run against the standard test deployment: a real
 * PostgreSQL 18.6 (started first, so its port reaches WildFly's datasource), a real WildFly through
 * Arquillian, and the deployment's URL. Subclasses add {@code @RunAsClient}, which Arquillian does not
 * inherit.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
public abstract class SampleContainerTest {
    @Deployment(testable = false)
    static WebArchive deployment() {
        return SampleDeployment.create();
    }

    @ArquillianResource
    protected URL base;
}
