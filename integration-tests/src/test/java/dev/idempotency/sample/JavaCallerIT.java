package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.foreign.customers.CustomerServlet;
import dev.idempotency.sample.keyedcaller.AttemptCounter;
import dev.idempotency.sample.keyedcaller.CallerRunResource;
import dev.idempotency.sample.keyedcaller.CustomersClient;
import dev.idempotency.sample.keyedcaller.FaultTolerantCustomers;
import dev.idempotency.sample.keyedcaller.KeyedCallerApplication;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.FaultProxy;
import dev.idempotency.sample.support.FaultProxy.Fault;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.asset.StringAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The caller's half (issue 41): a Java caller that the filter does not cover, deployed on WildFly, calls a covered
 * service through the fault-injecting proxy of {@link ClientMatrixIT}, which cuts answers after the commit and
 * withholds others past the caller's read timeout (500 ms). With {@code idempotency-client} (one registration, and the
 * invoker for its retries, or {@code @KeyedCall} around Fault Tolerance's {@code @Retry}) every logical call makes
 * its effect once and gets the first execution's id; without it (a hand-written keyless retry, or {@code @Retry}
 * without {@code @KeyedCall}), the same faults make duplicates. The pattern is counted in requests; only
 * effects and ids are compared, never timings.
 *
 * <p>The caller and the service are two WARs on one server; the proxy runs in the test JVM on loopback, so every
 * call leaves the server and comes back through it, as it would between two nodes.
 */
@Tag("java-caller")
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class JavaCallerIT {
    /**
     * Logical calls of the keyed run; with the other runs a few hundred, so the pattern hits every kind of fault many
     * times, within the test run's time budget.
     */
    private static final int KEYED_CALLS = 60;

    /** Logical calls of the Fault Tolerance run. */
    private static final int FAULT_TOLERANCE_CALLS = 40;

    /** Logical calls of the Rest Client run, whose retries wait the default back-off for real on the server. */
    private static final int REST_CLIENT_CALLS = 30;

    /** Enough for a run without the library to show duplicates. */
    private static final int UNKEYED_CALLS = 10;

    @Deployment(name = "customers", managed = false, testable = false)
    static WebArchive customers() throws IOException {
        return ShrinkWrap.create(WebArchive.class, "customers.war")
                .addPackage(CustomerServlet.class.getPackage())
                .setWebXML(new StringAsset(foreignFile("customers-web.xml")))
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(
                        new StringAsset(foreignFile("customers-idempotency.properties")), "idempotency.properties");
    }

    /**
     * The proxy every call goes through, for the whole class: the caller's Rest Client reads its port from the
     * WAR's configuration, written when the deployment is made.
     */
    private static final FaultProxy PROXY =
            new FaultProxy(TestServer.context("customers").getPort());

    /** The caller: no filter, only the client jar. */
    @Deployment(name = "caller", managed = false, testable = false)
    static WebArchive caller() throws IOException {
        String restClient = "customers/mp-rest/url="
                + PROXY.through(TestServer.context("customers").toURL()) + "\n"
                + "customers/mp-rest/readTimeout=500\n"
                + "customers/mp-rest/connectTimeout=2000\n"
                // One client for the application, closed with it: the default (@Dependent in the request-scoped
                // resource) leaves one unclosed client per request, which RESTEasy's cleaner warns of.
                + "customers/mp-rest/scope=jakarta.enterprise.context.ApplicationScoped\n";
        return ShrinkWrap.create(WebArchive.class, "caller.war")
                .addClasses(
                        KeyedCallerApplication.class,
                        CallerRunResource.class,
                        FaultTolerantCustomers.class,
                        CustomersClient.class,
                        AttemptCounter.class)
                .addAsResource(new StringAsset(restClient), "META-INF/microprofile-config.properties")
                .addAsLibrary(new File(System.getProperty("client.jar")), "idempotency-client.jar");
    }

    @ArquillianResource
    Deployer deployer;

    @BeforeAll
    static void tables() throws Exception {
        Database.installFilterTables();
        Database.execute("CREATE TABLE IF NOT EXISTS customer (id bigint GENERATED BY DEFAULT AS IDENTITY"
                + " PRIMARY KEY, name text NOT NULL, email text)");
    }

    @Test
    void aKeyedCallerThroughLostAnswersMakesEachEffectOnceAndGetsTheFirstExecutionsId() throws Exception {
        wildFlyOnly();
        Run run = deployed(() -> run(KEYED_CALLS, "invoker"));

        System.out.println("JavaCallerIT with idempotency-client's invoker: " + run);
        assertEachEffectOnceWithItsFirstId(run);
    }

    @Test
    void aCallerRetryingWithoutTheLibraryMakesDuplicatesThroughTheSameFaults() throws Exception {
        wildFlyOnly();
        Run run = deployed(() -> run(UNKEYED_CALLS, "naive"));

        System.out.println("JavaCallerIT without idempotency-client: " + run);
        assertTrue(run.duplicates() > 0, "the faults must make duplicates without keys: " + run);
    }

    /** {@code @KeyedCall} runs outside Fault Tolerance's {@code @Retry}: its retries share the call's key. */
    @Test
    void faultTolerancesRetriesInsideAKeyedCallKeepOneKeyAndMakeEachEffectOnce() throws Exception {
        wildFlyOnly();
        Run run = deployed(() -> run(FAULT_TOLERANCE_CALLS, "fault-tolerance"));

        System.out.println("JavaCallerIT with @Retry inside @KeyedCall: " + run);
        assertEachEffectOnceWithItsFirstId(run);
    }

    /** The same {@code @Retry} without {@code @KeyedCall}: the filter keys each attempt anew, so each one runs. */
    @Test
    void faultTolerancesRetriesWithoutAKeyedCallGetANewKeyEachAndMakeDuplicates() throws Exception {
        wildFlyOnly();
        Run run = deployed(() -> run(UNKEYED_CALLS, "fault-tolerance-alone"));

        System.out.println("JavaCallerIT with @Retry alone: " + run);
        assertTrue(run.retries() > 0, "no call was retried, so no fault hit: " + run);
        assertTrue(run.duplicates() > 0, "a new key per attempt must make duplicates: " + run);
    }

    /**
     * A Rest Client interface with the filter as a provider and {@code @KeyedCall(retry = true)}: the library's own
     * retry, without Fault Tolerance, reading the Rest Client's exceptions for a status or a lost answer.
     */
    @Test
    void aRestClientWithKeyedCallRetriesByItselfAndMakesEachEffectOnce() throws Exception {
        Run run = deployed(() -> run(REST_CLIENT_CALLS, "rest-client"));

        System.out.println("JavaCallerIT with a Rest Client and @KeyedCall(retry = true): " + run);
        assertEachEffectOnceWithItsFirstId(run);
    }

    @AfterAll
    static void closeProxy() throws IOException {
        PROXY.close();
    }

    /** Open Liberty runs the Rest Client case only; the rest is the same code on another server, and costs minutes. */
    private static void wildFlyOnly() {
        Assumptions.assumeTrue(TestServer.isWildFly(), "on Open Liberty only the Rest Client run is made");
    }

    private static void assertEachEffectOnceWithItsFirstId(Run run) {
        assertEquals(0, run.duplicates(), run.toString());
        for (int i = 0; i < run.calls(); i++) {
            assertEquals(run.firstExecutionId(i), run.returnedId(i), "call " + i + ": " + run);
        }
        assertTrue(run.retries() > 0, "no call was retried, so no fault hit: " + run);
        assertTrue(run.replayed() > 0, "no answer was a replay: " + run);
    }

    /** Runs {@code body} while the service and the caller are deployed. */
    private <T> T deployed(Callable<T> body) throws Exception {
        deployer.deploy("customers");
        deployer.deploy("caller");
        try {
            return body.call();
        } finally {
            deployer.undeploy("caller");
            deployer.undeploy("customers");
        }
    }

    private static Run run(int calls, String how) throws Exception {
        String throughProxy =
                PROXY.through(TestServer.context("customers").toURL()).toString();
        String prefix = "caller-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        // A first call pays the deployments' warm-up, which must not run into the read timeout.
        PROXY.armEach(request -> Fault.NONE);
        callerRun(throughProxy, prefix + "warm-up-", 1, how);
        PROXY.armEach(FaultProxy.EVERY_THIRD_CUT_EVERY_FIFTH_WITHHELD);
        List<String> lines = callerRun(throughProxy, prefix, calls, how);
        return new Run(prefix, calls, lines, PROXY.requestsSeen());
    }

    private static List<String> callerRun(String target, String prefix, int count, String how) throws Exception {
        URI runs = TestServer.context("caller")
                .resolve("api/runs?target=" + URLEncoder.encode(target, StandardCharsets.UTF_8) + "&prefix=" + prefix
                        + "&count=" + count + "&how=" + how);
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(runs)
                                .timeout(Duration.ofMinutes(10))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        return answer.body().lines().toList();
    }

    /** One run: per call {@code <i> <id> <attempts> <replayed>}, and the requests the proxy forwarded. */
    private record Run(String prefix, int calls, List<String> lines, int requests) {
        String returnedId(int call) {
            return field(call, 1);
        }

        int retries() {
            int retries = 0;
            for (int call = 0; call < calls; call++) {
                retries += Integer.parseInt(field(call, 2)) - 1;
            }
            return retries;
        }

        long replayed() {
            return lines.stream().filter(line -> line.endsWith(" true")).count();
        }

        /** Rows beyond one per call. */
        long duplicates() {
            return Database.count("SELECT count(*) FROM customer WHERE name LIKE '" + prefix + "%' AND name NOT LIKE '"
                            + prefix + "warm-up-%'")
                    - calls;
        }

        /** The id of the one row made for call {@code i}, or of the first if there were several. */
        String firstExecutionId(int call) {
            return "cus_" + Database.count("SELECT min(id) FROM customer WHERE name = '" + prefix + call + "'");
        }

        private String field(int call, int index) {
            String[] fields = lines.get(call).split(" ");
            assertEquals(String.valueOf(call), fields[0], lines.get(call));
            return fields[index];
        }

        @Override
        public String toString() {
            return calls + " logical calls, " + requests + " requests reached the server "
                    + FaultProxy.faultsOf(requests)
                    + ", " + retries() + " retries, " + replayed() + " answers replayed, "
                    + duplicates() + " duplicate rows";
        }
    }

    /** A file of {@code src/test/resources/foreign}, pointed at this server's name for the test datasource. */
    private static String foreignFile(String name) throws IOException {
        return Files.readString(Path.of("src/test/resources/foreign/" + name))
                .replace("${datasource}", TestServer.dataSource());
    }
}
