package dev.idempotency.sample.engines;

import dev.idempotency.sample.support.PostgresExtension;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store's contract on node 1 of a MariaDB Galera cluster, where the filter detects the cluster and claims
 * with streaming replication and causal reads ({@code GaleraDialect}): every scenario of one server holds there
 * too. The scenarios across nodes are {@link GaleraIT}'s.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(GaleraExtension.class)
@ExtendWith(ArquillianExtension.class)
class GaleraStoreContractIT extends StoreContractIT {
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        Engine.GALERA.installFilterTables();
        return contractDeployment("contract-galera.war");
    }

    @Override
    Engine engine() {
        return Engine.GALERA;
    }
}
