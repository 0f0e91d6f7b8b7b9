package dev.idempotency.sample.support.payara;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link PayaraContainer} in the build's Payara runs only ({@code arquillian.launch=payara}, Payara 6, and
 * {@code payara5}): the other runs have their own server's connector, and Arquillian takes one.
 */
public class PayaraExtension implements LoadableExtension {
    @Override
    public void register(ExtensionBuilder builder) {
        if (System.getProperty("arquillian.launch", "").startsWith("payara")) {
            builder.service(DeployableContainer.class, PayaraContainer.class);
        }
    }
}
