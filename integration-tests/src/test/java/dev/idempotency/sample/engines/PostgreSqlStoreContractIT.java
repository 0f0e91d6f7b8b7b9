package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store's contract on PostgreSQL 18.6. */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
class PostgreSqlStoreContractIT extends StoreContractIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        Engine.POSTGRESQL.installFilterTables();
        return contractDeployment("contract-postgresql.war");
    }

    @Override
    Engine engine() {
        return Engine.POSTGRESQL;
    }
}
