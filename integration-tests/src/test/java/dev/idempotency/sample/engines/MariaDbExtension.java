package dev.idempotency.sample.engines;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts {@link Engine#MARIADB}'s server (its {@code MariaDbConfig}) once per JVM before Arquillian, so that
 * WildFly's {@code MariaDS} finds it when the deployment's persistence unit starts.
 */
public final class MariaDbExtension implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        Engine.MARIADB.config().start();
    }
}
