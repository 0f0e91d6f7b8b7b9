package dev.idempotency.sample.support.payara;

import dev.idempotency.sample.support.ModernJdk;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jboss.arquillian.container.spi.client.container.DeployableContainer;
import org.jboss.arquillian.container.spi.client.container.DeploymentException;
import org.jboss.arquillian.container.spi.client.container.LifecycleException;
import org.jboss.arquillian.container.spi.client.protocol.ProtocolDescription;
import org.jboss.arquillian.container.spi.client.protocol.metadata.HTTPContext;
import org.jboss.arquillian.container.spi.client.protocol.metadata.ProtocolMetaData;
import org.jboss.arquillian.container.spi.client.protocol.metadata.Servlet;
import org.jboss.shrinkwrap.api.Archive;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.descriptor.api.Descriptor;

/**
 * Payara Server 6 and 5, and their ancestor GlassFish 5.1, 6.2 and 8, for Arquillian, driven with their own
 * {@code asadmin}: start the domain, make the test datasource (a non-XA pool on the test PostgreSQL, whose port is
 * known only once the tests started it), deploy and undeploy each WAR under its own name as context root, stop the
 * domain. Written for this build because
 * Payara's managed connector 2.5, the last one Maven Central serves for Java 17, predates Payara 6 and cannot
 * create the pool between starting the domain and the first deployment. Client-side tests only.
 */
public class PayaraContainer implements DeployableContainer<PayaraConfiguration> {
    /** The pool and resource the test deployments' persistence units name. */
    static final String POOL = "samplePool";

    static final String DATASOURCE = "jdbc/sample";

    /** Pools of one and of two connections, with a two-second wait for one (PayaraPoolIT). */
    static final List<Integer> SMALL_POOL_SIZES = List.of(1, 2);

    private PayaraConfiguration configuration;
    private Path deployments;

    @Override
    public Class<PayaraConfiguration> getConfigurationClass() {
        return PayaraConfiguration.class;
    }

    @Override
    public void setup(PayaraConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public void start() throws LifecycleException {
        try {
            deployments = Files.createTempDirectory("payara-deployments");
            asadmin(configuration.getStartupTimeoutSeconds(), "start-domain", configuration.getDomain());
            createTestUsers();
            createTestDataSource();
        } catch (IOException | Asadmin.Failure e) {
            throw new LifecycleException("Payara did not start: " + e.getMessage(), e);
        }
    }

    /**
     * The test users of the other servers (alice and bob in {@code user}, operator in {@code idempotency-admin}),
     * in a file realm named as the sample's {@code web.xml} names its realm, with each role mapped to the group
     * of the same name, as Liberty does for applications without role bindings.
     */
    private void createTestUsers() throws Asadmin.Failure, IOException {
        if (asadmin(60, "list-auth-realms").contains("ApplicationRealm")) {
            return;
        }
        asadmin(
                60,
                "create-auth-realm",
                "--classname",
                "com.sun.enterprise.security.auth.realm.file.FileRealm",
                "--property",
                "file=${com.sun.aas.instanceRoot}/config/application-keyfile:jaas-context=fileRealm",
                "ApplicationRealm");
        createUser("alice", "user");
        createUser("bob", "user");
        createUser("operator", "idempotency-admin");
        asadmin(
                60,
                "set",
                "configs.config.server-config.security-service" + ".activate-default-principal-to-role-mapping=true");
    }

    /** A user whose password is its name, as on the other servers. */
    private void createUser(String name, String group) throws Asadmin.Failure, IOException {
        Path password = Files.createTempFile("asadmin-password", ".txt");
        try {
            Files.writeString(password, "AS_ADMIN_USERPASSWORD=" + name + "\n");
            asadmin(
                    60,
                    "--passwordfile",
                    password.toString(),
                    "create-file-user",
                    "--authrealmname",
                    "ApplicationRealm",
                    "--groups",
                    group,
                    name);
        } finally {
            Files.delete(password);
        }
    }

    /**
     * A non-XA pool ({@code javax.sql.DataSource}) on the test PostgreSQL, created once per domain; its port is
     * set on every start, because the tests start PostgreSQL on a free port. Pool monitoring is on, so that a test
     * can read how many connections a covered request holds.
     */
    private void createTestDataSource() throws Asadmin.Failure {
        String port = System.getProperty("pg.port");
        if (port == null) {
            throw new Asadmin.Failure("pg.port is not set: register PostgresExtension before ArquillianExtension");
        }
        String pools = asadmin(60, "list-jdbc-connection-pools");
        if (!pools.contains(POOL)) {
            createPool(POOL, DATASOURCE, port, "--maxpoolsize", "50");
            asadmin(
                    60,
                    "set",
                    "configs.config.server-config.monitoring-service.module-monitoring-levels"
                            + ".jdbc-connection-pool=HIGH");
        }
        List<String> all = new ArrayList<>(List.of(POOL));
        for (int size : SMALL_POOL_SIZES) {
            String pool = "pool" + size;
            all.add(pool);
            if (!pools.contains(pool)) {
                createPool(
                        pool,
                        "jdbc/pool" + size,
                        port,
                        "--maxpoolsize",
                        Integer.toString(size),
                        "--steadypoolsize",
                        "0",
                        "--maxwait",
                        "2000");
            }
        }
        for (String pool : all) {
            asadmin(60, "set", "resources.jdbc-connection-pool." + pool + ".property.portNumber=" + port);
        }
    }

    private void createPool(String pool, String jndiName, String port, String... sizing) throws Asadmin.Failure {
        List<String> command = new ArrayList<>(List.of(
                "create-jdbc-connection-pool",
                "--restype",
                "javax.sql.DataSource",
                "--datasourceclassname",
                "org.postgresql.ds.PGSimpleDataSource",
                "--property",
                "serverName=localhost:portNumber=" + port + ":databaseName=postgres:user=postgres:password=postgres"));
        command.addAll(List.of(sizing));
        command.add(pool);
        asadmin(60, command.toArray(String[]::new));
        asadmin(60, "create-jdbc-resource", "--connectionpoolid", pool, jndiName);
    }

    @Override
    public void stop() throws LifecycleException {
        try {
            asadmin(120, "stop-domain", configuration.getDomain());
        } catch (Asadmin.Failure e) {
            throw new LifecycleException("Payara did not stop: " + e.getMessage(), e);
        }
    }

    @Override
    public ProtocolDescription getDefaultProtocol() {
        return new ProtocolDescription("Servlet 5.0");
    }

    @Override
    public ProtocolMetaData deploy(Archive<?> archive) throws DeploymentException {
        String name = contextRoot(archive);
        File war = deployments.resolve(archive.getName()).toFile();
        archive.as(ZipExporter.class).exportTo(war, true);
        try {
            asadmin(300, "deploy", "--force=true", "--name", name, "--contextroot", name, war.getPath());
        } catch (Asadmin.Failure e) {
            throw new DeploymentException("Cannot deploy " + archive.getName() + ": " + e.getMessage(), e);
        }
        HTTPContext context = new HTTPContext("127.0.0.1", configuration.getHttpPort());
        context.add(new Servlet("default", "/" + name));
        return new ProtocolMetaData().addContext(context);
    }

    @Override
    public void undeploy(Archive<?> archive) throws DeploymentException {
        try {
            asadmin(120, "undeploy", contextRoot(archive));
        } catch (Asadmin.Failure e) {
            throw new DeploymentException("Cannot undeploy " + archive.getName() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void deploy(Descriptor descriptor) {
        throw new UnsupportedOperationException("descriptors are not deployed to Payara in these tests");
    }

    @Override
    public void undeploy(Descriptor descriptor) {
        throw new UnsupportedOperationException("descriptors are not deployed to Payara in these tests");
    }

    /** {@code sample.war} is deployed as {@code sample} at {@code /sample}, as WildFly and Liberty do. */
    private static String contextRoot(Archive<?> archive) {
        String name = archive.getName();
        return name.endsWith(".war") ? name.substring(0, name.length() - 4) : name;
    }

    private String asadmin(int timeoutSeconds, String... arguments) throws Asadmin.Failure {
        return Asadmin.run(Path.of(configuration.getPayaraHome()), javaHome(), timeoutSeconds, arguments);
    }

    /** The Java the server runs on: the configured one, the newest that is new enough, or the tests' own. */
    private String javaHome() throws Asadmin.Failure {
        if (configuration.getJavaHome() != null || configuration.getMinimumJava() == 0) {
            return configuration.getJavaHome();
        }
        return ModernJdk.atLeast(configuration.getMinimumJava())
                .map(Path::toString)
                .orElseThrow(
                        () -> new Asadmin.Failure("no Java " + configuration.getMinimumJava() + " on this machine"));
    }
}
