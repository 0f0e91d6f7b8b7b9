package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sample on Apache Derby 10.16 through WildFly's DerbyDS (Derby's client driver as a server module, its network
 * server in the test JVM). Hibernate 6.6 detects Derby itself, so the WAR needs no dialect of its own.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(DerbyExtension.class)
@ExtendWith(ArquillianExtension.class)
class DerbyEndToEndIT extends EngineEndToEndIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        return sampleOn(Engine.DERBY, "sample-derby.war");
    }

    @Override
    Engine engine() {
        return Engine.DERBY;
    }
}
