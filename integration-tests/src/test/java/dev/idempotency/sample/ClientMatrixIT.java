package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.models.moderations.ModerationCreateParams;
import com.stripe.StripeClient;
import com.stripe.exception.ApiException;
import com.stripe.model.Customer;
import com.stripe.net.RequestOptions;
import com.stripe.param.CustomerCreateParams;
import dev.idempotency.foreign.customers.CustomerServlet;
import dev.idempotency.foreign.moderations.ModerationServlet;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.FaultProxy;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.TestServer;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Real SDKs' own retry loops against a covered WAR, through a proxy that loses answers in a fixed pattern: what a
 * team whose clients use an official SDK gets from adopting the jar with a settings file. The WAR imitates Stripe's
 * {@code POST /v1/customers} ({@code dev.idempotency.foreign.customers}); it is deployed adopted, and once more
 * without the jar to show what the same faults do there.
 *
 * <p>stripe-java sends {@code Idempotency-Key: <UUID>} on every POST, made once per call and kept across its
 * retries. Its {@code StripeClient} builder retries nothing unless told ({@code setMaxNetworkRetries}); it retries a
 * read timeout, and not a connection reset, which the JDK's {@code HttpURLConnection} answers by sending the POST
 * once more by itself, with the same headers. The pattern exercises both: every third request's answer is cut as
 * it starts, after the commit (the JDK's own re-send), and every fifth other one is withheld until the client's read
 * timeout (the SDK's retry). Nothing here bets on timing: the pattern is counted in requests, and only effects and
 * ids are compared.
 *
 * <p>No Stainless- or Fern-generated Java SDK on the Maven Central reachable here sends a key by itself: Modern
 * Treasury's Java SDK, which would, does not resolve, and openai-java and anthropic-java build their retrying client
 * without an idempotency header. openai-java stands for them here, as the keyless retrier it is.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ClientMatrixIT {
    /** Calls per run: enough for the pattern to cut and withhold several answers of each kind. */
    private static final int CALLS = 30;

    @Deployment(name = "customers", managed = false, testable = false)
    static WebArchive adopted() throws IOException {
        return customers("customers.war")
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(
                        new StringAsset(foreignFile("customers-idempotency.properties")), "idempotency.properties");
    }

    /** The same WAR with both opt-ins for SDKs: {@code retry-hints = sdk}, {@code problem-error-member = stripe}. */
    @Deployment(name = "customers-hinted", managed = false, testable = false)
    static WebArchive hinted() throws IOException {
        return customers("customers-hinted.war")
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(
                        new StringAsset(foreignFile("customers-idempotency.properties")
                                + "\nretry-hints = sdk\nproblem-error-member = stripe\n"),
                        "idempotency.properties");
    }

    @Deployment(name = "moderations", managed = false, testable = false)
    static WebArchive moderations() throws IOException {
        return ShrinkWrap.create(WebArchive.class, "moderations.war")
                .addPackage(ModerationServlet.class.getPackage())
                .setWebXML(new StringAsset(foreignFile("moderations-web.xml")))
                .addAsLibrary(new File(System.getProperty("filter.jar")), "idempotency-filter.jar")
                .addAsWebInfResource(
                        new StringAsset(foreignFile("moderations-idempotency.properties")), "idempotency.properties");
    }

    @Deployment(name = "customers-alone", managed = false, testable = false)
    static WebArchive alone() throws IOException {
        return customers("customers-alone.war");
    }

    @ArquillianResource
    Deployer deployer;

    /** Deployed only once the tables exist: the filter checks its tables when it starts. */
    @BeforeAll
    static void tables() throws Exception {
        Database.installFilterTables();
        Database.execute("CREATE TABLE IF NOT EXISTS customer (id bigint GENERATED BY DEFAULT AS IDENTITY"
                + " PRIMARY KEY, name text NOT NULL, email text)");
        Database.execute("CREATE TABLE IF NOT EXISTS moderation (id bigint GENERATED BY DEFAULT AS IDENTITY"
                + " PRIMARY KEY, input text NOT NULL)");
    }

    @Test
    void stripeJavaThroughCutAndWithheldAnswersCreatesEachCustomerOnceAndGetsItsFirstId() throws Exception {
        Run run = deployed("customers", () -> stripeRun("customers"));

        assertEquals(0, run.duplicates(), run.toString());
        for (int i = 0; i < CALLS; i++) {
            // The id each call returned is the one its first execution made: the only row with its name.
            assertEquals(run.firstExecutionId(i), run.returnedIds().get(i), run.toString());
        }
        assertTrue(run.replayed() > 0, "no answer was a replay, so no fault hit: " + run);
        System.out.println("ClientMatrixIT stripe-java, with the filter: " + run);
    }

    @Test
    void stripeJavaThroughTheSameFaultsWithoutTheJarCreatesDuplicates() throws Exception {
        Run run = deployed("customers-alone", () -> stripeRun("customers-alone"));

        assertTrue(run.duplicates() > 0, "the faults must make duplicates without the filter: " + run);
        System.out.println("ClientMatrixIT stripe-java, without the jar: " + run);
    }

    /**
     * A key reused with another body is refused with 422 before any effect. By default stripe-java raises a plain
     * {@link ApiException} ("Invalid response object from API"), since the filter's problem document has no Stripe
     * {@code error} member.
     */
    @Test
    void stripeJavaReusingAKeyWithAnotherBodyIsRefusedAndCreatesNothing() throws Exception {
        ApiException refused = deployed("customers", () -> reuseAKey("customers"));

        assertTrue(refused.getMessage().contains("Invalid response object from API"), refused.getMessage());
    }

    /**
     * With {@code problem-error-member = stripe}, stripe-java reads the filter's {@code error} member: the exception
     * carries Stripe's {@code idempotency_error} type, the problem's slug as its code and the detail as its message.
     * It stays an {@link ApiException}, not {@code IdempotencyException}: stripe-java 33.3.0 picks the class by status
     * first ({@code LiveStripeResponseGetter.exceptionFromStatus}), and only a 400 or 404 of type {@code
     * idempotency_error} becomes {@code IdempotencyException}; a 422 is an {@code ApiException} whatever the type.
     * With {@code retry-hints = sdk} the 422 says {@code Stripe-Should-Retry: false}, and the first execution no hint.
     */
    @Test
    void withStripesErrorMemberStripeJavaRaisesTheFiltersIdempotencyErrorAndIsToldNotToRetry() throws Exception {
        ApiException refused = deployed("customers-hinted", () -> reuseAKey("customers-hinted"));

        assertEquals("idempotency_error", refused.getStripeError().getType());
        assertEquals("idempotency-key-reused", refused.getCode());
        assertTrue(refused.getMessage().contains("was already used for a different request"), refused.getMessage());
        assertEquals(
                "false",
                refused.getStripeError()
                        .getLastResponse()
                        .headers()
                        .firstValue("Stripe-Should-Retry")
                        .orElse("absent"));
        assertEquals(
                "false",
                refused.getStripeError()
                        .getLastResponse()
                        .headers()
                        .firstValue("x-should-retry")
                        .orElse("absent"));
    }

    /**
     * Creates a customer, then sends the same key with another body: refused with 422, and nothing more was made.
     * The first call's answer carries no retry hint, whatever the settings.
     */
    private static ApiException reuseAKey(String contextRoot) throws Exception {
        StripeClient client = stripe(URI.create(TestServer.context(contextRoot).toString()));
        String name = "reuse-" + UUID.randomUUID();
        RequestOptions sameKey = RequestOptions.builder()
                .setIdempotencyKey(UUID.randomUUID().toString())
                .build();
        Customer first = client.customers().create(params(name, "first@example.com"), sameKey);
        assertEquals(
                "absent",
                first.getLastResponse()
                        .headers()
                        .firstValue("Stripe-Should-Retry")
                        .orElse("absent"));

        ApiException refused = assertThrows(
                ApiException.class, () -> client.customers().create(params(name, "changed@example.com"), sameKey));

        assertEquals(422, refused.getStatusCode(), refused.getMessage());
        assertEquals(1, Database.count("SELECT count(*) FROM customer WHERE name = '" + name + "'"));
        return refused;
    }

    /**
     * openai-java 4.105.0, a Stainless-generated SDK: its generator config set no {@code idempotencyHeader}, so it
     * retries a POST without a key (only {@code X-Stainless-Retry-Count} tells a retry). Under {@code rollout-mode =
     * OPTIONAL} a keyless request passes uncovered, so every retry of a lost answer runs again: pinned here as the
     * gap a retry marker would close (issue 33), not as wanted behaviour.
     */
    @Test
    void aStainlessSdkWithoutAKeyRetriesThroughTheSameFaultsAndEachRetryRunsAgain() throws Exception {
        deployed("moderations", () -> {
            keylessRun();
            return null;
        });
    }

    private static void keylessRun() throws Exception {
        URI target = TestServer.context("moderations");
        String prefix = "matrix-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        try (FaultProxy proxy = new FaultProxy(target.getPort())) {
            String base = proxy.through(target.toURL()).toString();
            OpenAIClient client = OpenAIOkHttpClient.builder()
                    .apiKey("sk-client-matrix")
                    .baseUrl(base + "v1")
                    .timeout(Duration.ofSeconds(2))
                    .build();
            client.moderations().create(moderation(prefix + "warm-up"));
            proxy.armEach(FaultProxy.EVERY_THIRD_CUT_EVERY_FIFTH_WITHHELD);
            for (int i = 0; i < CALLS; i++) {
                client.moderations().create(moderation(prefix + i)).id();
            }
            long rows = Database.count("SELECT count(*) FROM moderation WHERE input LIKE '%" + prefix
                    + "%' AND input NOT LIKE '%warm-up%'");
            System.out.println("ClientMatrixIT openai-java, keyless, with the filter: " + CALLS + " calls, "
                    + proxy.requestsSeen() + " requests reached the server, " + rows + " rows");
            assertEquals(proxy.requestsSeen(), rows, "every keyless request ran");
            assertTrue(rows > CALLS, "the faults must have made the SDK retry");
        }
    }

    /** Runs {@code body} while the deployment {@code name} is deployed. */
    private <T> T deployed(String name, Callable<T> body) throws Exception {
        deployer.deploy(name);
        try {
            return body.call();
        } finally {
            deployer.undeploy(name);
        }
    }

    private static ModerationCreateParams moderation(String input) {
        return ModerationCreateParams.builder().input(input).build();
    }

    /** {@value #CALLS} calls of stripe-java, one after another, through the faulting proxy to {@code contextRoot}. */
    private static Run stripeRun(String contextRoot) throws Exception {
        URI target = TestServer.context(contextRoot);
        String prefix = "matrix-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        try (FaultProxy proxy = new FaultProxy(target.getPort())) {
            URI throughProxy = proxy.through(target.toURL()).toURI();
            StripeClient client = stripe(throughProxy);
            // A first call pays the deployment's warm-up, which must not run into the read timeout.
            client.customers().create(params(prefix + "warm-up", null));
            proxy.armEach(FaultProxy.EVERY_THIRD_CUT_EVERY_FIFTH_WITHHELD);
            List<String> ids = new ArrayList<>();
            int replayed = 0;
            for (int i = 0; i < CALLS; i++) {
                Customer customer = client.customers().create(params(prefix + i, "c" + i + "@example.com"));
                ids.add(customer.getId());
                if ("true"
                        .equals(customer.getLastResponse()
                                .headers()
                                .firstValue("Idempotent-Replayed")
                                .orElse(""))) {
                    replayed++;
                }
            }
            return new Run(prefix, ids, proxy.requestsSeen(), replayed);
        }
    }

    /** What one run of calls did: the ids the calls returned, and what reached the server and came back replayed. */
    private record Run(String prefix, List<String> returnedIds, int requests, int replayed) {
        /** Rows beyond one per call. */
        long duplicates() {
            return Database.count("SELECT count(*) FROM customer WHERE name LIKE '" + prefix + "%' AND name <> '"
                            + prefix + "warm-up'")
                    - CALLS;
        }

        /** The id of the one row made for call {@code i}, or of the first if there were several. */
        String firstExecutionId(int i) {
            return "cus_" + Database.count("SELECT min(id) FROM customer WHERE name = '" + prefix + i + "'");
        }

        @Override
        public String toString() {
            return CALLS + " calls, " + requests + " requests reached the server " + FaultProxy.faultsOf(requests)
                    + ", " + replayed + " answers replayed, " + duplicates()
                    + " duplicate rows";
        }
    }

    /** The SDK as a team configures it: retries on (the builder's default is none), a read timeout it can reach. */
    private static StripeClient stripe(URI apiBase) {
        String base = apiBase.toString();
        return StripeClient.builder()
                .setApiKey("sk_test_client_matrix")
                .setApiBase(base.endsWith("/") ? base.substring(0, base.length() - 1) : base)
                .setMaxNetworkRetries(3)
                .setReadTimeout(2_000)
                .build();
    }

    private static CustomerCreateParams params(String name, String email) {
        CustomerCreateParams.Builder params = CustomerCreateParams.builder().setName(name);
        return (email == null ? params : params.setEmail(email)).build();
    }

    private static WebArchive customers(String archiveName) throws IOException {
        return ShrinkWrap.create(WebArchive.class, archiveName)
                .addPackage(CustomerServlet.class.getPackage())
                .setWebXML(new StringAsset(foreignFile("customers-web.xml")));
    }

    /** A file of {@code src/test/resources/foreign}, pointed at this server's name for the test datasource. */
    private static String foreignFile(String name) throws IOException {
        return Files.readString(Path.of("src/test/resources/foreign/" + name))
                .replace("${datasource}", TestServer.dataSource());
    }
}
