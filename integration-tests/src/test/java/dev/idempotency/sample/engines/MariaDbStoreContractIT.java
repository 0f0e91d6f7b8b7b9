package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store's contract on MariaDB 11.4 (InnoDB, Repeatable Read). */
@ExtendWith(PostgresExtension.class)
@ExtendWith(MariaDbExtension.class)
@ExtendWith(ArquillianExtension.class)
class MariaDbStoreContractIT extends StoreContractIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        Engine.MARIADB.installFilterTables();
        return contractDeployment("contract-mariadb.war");
    }

    @Override
    Engine engine() {
        return Engine.MARIADB;
    }
}
