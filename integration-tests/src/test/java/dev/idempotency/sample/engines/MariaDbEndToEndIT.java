package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The sample on MariaDB 11.4 through WildFly's MariaDS. */
@ExtendWith(PostgresExtension.class)
@ExtendWith(MariaDbExtension.class)
@ExtendWith(ArquillianExtension.class)
class MariaDbEndToEndIT extends EngineEndToEndIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        return sampleOn(Engine.MARIADB, "sample-mariadb.war");
    }

    @Override
    Engine engine() {
        return Engine.MARIADB;
    }
}
