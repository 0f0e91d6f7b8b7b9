package dev.idempotency.sample.engines;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts {@link Engine#DERBY}'s network server (its {@code DerbyConfig}) once per JVM before Arquillian, so that
 * WildFly's {@code DerbyDS} finds it when the deployment's persistence unit starts.
 */
public final class DerbyExtension implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        Engine.DERBY.config().start();
    }
}
