package dev.idempotency.sample.engines;

import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts the {@link GaleraCluster} before Arquillian deploys, or, on a machine without its packages, says so in
 * one line of the build's log and aborts the test class before any test: none of its tests is run or counted
 * (Failsafe reports {@code Tests run: 0} for it), never as passed.
 */
public final class GaleraExtension implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Optional<String> missing = GaleraCluster.missing();
        if (missing.isPresent()) {
            String line = "GALERA SUITE NOT RUN: " + context.getDisplayName() + " needs a MariaDB Galera cluster: "
                    + missing.get();
            System.out.println(line);
            Assumptions.abort(line);
        }
        GaleraCluster.start();
    }

    /** The running cluster, started on first use. */
    static GaleraCluster cluster() {
        try {
            return GaleraCluster.start();
        } catch (Exception e) {
            throw new IllegalStateException("the Galera cluster did not start", e);
        }
    }
}
