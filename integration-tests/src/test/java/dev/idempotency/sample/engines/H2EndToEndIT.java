package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sample on H2 2.2.224 through WildFly's H2DS. */
@ExtendWith(PostgresExtension.class)
@ExtendWith(H2Extension.class)
@ExtendWith(ArquillianExtension.class)
class H2EndToEndIT extends EngineEndToEndIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        return sampleOn(Engine.H2, "sample-h2.war");
    }

    @Override
    Engine engine() {
        return Engine.H2;
    }
}
