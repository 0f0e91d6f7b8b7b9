package dev.idempotency.sample.support.payara;

import org.jboss.arquillian.container.spi.ConfigurationException;
import org.jboss.arquillian.container.spi.client.container.ContainerConfiguration;

/** Where the Payara Server is and how the tests reach it, from {@code arquillian.xml}. */
public class PayaraConfiguration implements ContainerConfiguration {
    private String payaraHome;
    private String domain = "domain1";
    private int httpPort = 8080;
    private int startupTimeoutSeconds = 180;
    private String javaHome;
    private int minimumJava;

    @Override
    public void validate() throws ConfigurationException {
        if (payaraHome == null || payaraHome.isBlank()) {
            throw new ConfigurationException(
                    "payaraHome must name the unpacked Payara Server (its payara6 or payara5 directory)");
        }
    }

    public String getPayaraHome() {
        return payaraHome;
    }

    public void setPayaraHome(String payaraHome) {
        this.payaraHome = payaraHome;
    }

    /** The Java the server runs on ({@code AS_JAVA}); {@code null} for the one the tests run on. */
    public String getJavaHome() {
        return javaHome;
    }

    public void setJavaHome(String javaHome) {
        this.javaHome = javaHome;
    }

    /**
     * A Java the server needs at least (GlassFish 8: 21), for a server run on the newest such JDK of the machine
     * ({@code ModernJdk}) when no {@link #getJavaHome() javaHome} is given; 0 for none.
     */
    public int getMinimumJava() {
        return minimumJava;
    }

    public void setMinimumJava(int minimumJava) {
        this.minimumJava = minimumJava;
    }

    public String getDomain() {
        return domain;
    }

    public void setDomain(String domain) {
        this.domain = domain;
    }

    public int getHttpPort() {
        return httpPort;
    }

    public void setHttpPort(int httpPort) {
        this.httpPort = httpPort;
    }

    public int getStartupTimeoutSeconds() {
        return startupTimeoutSeconds;
    }

    public void setStartupTimeoutSeconds(int startupTimeoutSeconds) {
        this.startupTimeoutSeconds = startupTimeoutSeconds;
    }
}
