package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store's contract on H2 2.2.224, the version WildFly ships. H2 does not make a concurrent duplicate
 * wait; the store's polling makes it behave as if it did, which the waiting scenarios prove.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(H2Extension.class)
@ExtendWith(ArquillianExtension.class)
class H2StoreContractIT extends StoreContractIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        Engine.H2.installFilterTables();
        return contractDeployment("contract-h2.war");
    }

    @Override
    Engine engine() {
        return Engine.H2;
    }
}
