package dev.idempotency.sample.engines;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Starts {@link Engine#H2}'s TCP server (its {@code H2Config}) once per JVM before Arquillian: WildFly's {@code
 * H2DS} reaches it with the H2 driver the server ships, so the test JVM's version is the same (2.2.224).
 */
public final class H2Extension implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        Engine.H2.config().start();
    }
}
