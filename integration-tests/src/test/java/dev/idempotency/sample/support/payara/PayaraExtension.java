package dev.idempotency.sample.support.payara;

import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.core.spi.LoadableExtension;

/**
 * Registers {@link PayaraContainer} in the build's Payara and GlassFish runs only ({@code arquillian.launch=payara},
 * Payara 6, {@code payara5}, {@code glassfish5} and {@code glassfish6}): the other runs have their own server's
 * connector, and Arquillian takes one.
 */
public class PayaraExtension implements LoadableExtension {
    @Override
    public void register(ExtensionBuilder builder) {
        String launch = System.getProperty("arquillian.launch", "");
        if (launch.startsWith("payara") || launch.startsWith("glassfish")) {
            builder.service(DeployableContainer.class, PayaraContainer.class);
        }
    }
}
