package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store's contract on SQLite 3 in a file, through WildFly's SqliteDS (the driver's deferred transactions). */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
class SqliteStoreContractIT extends StoreContractIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        Engine.SQLITE.installFilterTables();
        return contractDeployment("contract-sqlite.war");
    }

    @Override
    Engine engine() {
        return Engine.SQLITE;
    }
}
