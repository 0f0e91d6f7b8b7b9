package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store's contract on Apache Derby 10.16 through WildFly's {@code DerbyDS} (Derby's client driver as a server
 * module, its network server in the test JVM). Derby makes a concurrent duplicate wait on the winner's row lock, up
 * to its lock wait timeout, as PostgreSQL does; the same scenarios prove it.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(DerbyExtension.class)
@ExtendWith(ArquillianExtension.class)
class DerbyStoreContractIT extends StoreContractIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        Engine.DERBY.installFilterTables();
        return contractDeployment("contract-derby.war");
    }

    @Override
    Engine engine() {
        return Engine.DERBY;
    }
}
