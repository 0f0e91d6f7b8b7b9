package dev.idempotency.sample.support.payara;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link PayaraContainer} in the build's Payara run only ({@code arquillian.launch=payara}): the other
 * runs have their own server's connector, and Arquillian takes one.
 */
public class PayaraExtension implements LoadableExtension {
    @Override
    public void register(ExtensionBuilder builder) {
        if ("payara".equals(System.getProperty("arquillian.launch"))) {
            builder.service(DeployableContainer.class, PayaraContainer.class);
        }
    }
}
