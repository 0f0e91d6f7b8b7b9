package dev.idempotency.sample.keyedcaller;

import dev.idempotency.client.CallResult;
import dev.idempotency.client.IdempotentCall;
import dev.idempotency.client.RetryPolicy;
import dev.idempotency.client.jaxrs.IdempotencyKeyFilter;
import dev.idempotency.client.jaxrs.IdempotentInvoker;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Form;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * One run of {@code count} logical calls, one after another, each creating the customer {@code prefix + i}, made as
 * {@code how} says: {@code invoker} ({@code IdempotentInvoker}), {@code naive} (a hand-written keyless retry),
 * {@code fault-tolerance} ({@code @Retry} inside {@code @KeyedCall}), {@code fault-tolerance-alone} ({@code
 * @Retry}, every request keyed by the filter on its own) or {@code rest-client} ({@link CustomersClient}). The answer is one line per call ({@code <i> <id>
 * <attempts> <replayed>}) for the test to compare with the table.
 */
@RequestScoped // a CDI bean, so that the Fault Tolerance bean is injected
@Path("runs")
public class CallerRunResource {
    @Inject
    FaultTolerantCustomers faultTolerant;

    @Inject
    @RestClient
    CustomersClient restClient;

    static final String API_KEY = "Bearer sk_test_java_caller";
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"(cus_[0-9]+)\"");
    /** The attempts a hand-written retry makes, as many as the library's policy below allows. */
    private static final int NAIVE_ATTEMPTS = 5;

    /** Short waits, so that a few hundred calls take seconds; the rules are the defaults'. */
    private static final RetryPolicy POLICY = RetryPolicy.builder()
            .maxAttempts(5)
            .maxDelay(Duration.ofMillis(400))
            .baseDelay(Duration.ofMillis(50))
            .build();

    @POST
    @Produces(MediaType.TEXT_PLAIN)
    public String run(
            @QueryParam("target") String target,
            @QueryParam("prefix") String prefix,
            @QueryParam("count") int count,
            @QueryParam("how") String how) {
        // A read timeout the proxy's withheld answers run into.
        Client client = ClientBuilder.newBuilder()
                .connectTimeout(2, TimeUnit.SECONDS)
                .readTimeout(500, TimeUnit.MILLISECONDS)
                .build();
        StringBuilder lines = new StringBuilder();
        try {
            if (!"naive".equals(how)) {
                client.register(IdempotencyKeyFilter.class);
            }
            WebTarget customers = client.target(target).path("v1/customers");
            for (int i = 0; i < count; i++) {
                Entity<Form> form = Entity.form(new Form("name", prefix + i));
                lines.append(i).append(' ').append(call(how, customers, form)).append('\n');
            }
        } finally {
            client.close();
        }
        return lines.toString();
    }

    private String call(String how, WebTarget customers, Entity<Form> form) {
        switch (how) {
            case "invoker":
                return keyedCall(customers, form);
            case "naive":
                return naiveCall(customers, form);
            case "fault-tolerance":
            case "fault-tolerance-alone":
                int before = faultTolerant.attemptsSoFar();
                String[] idAndReplayed = ("fault-tolerance".equals(how)
                                ? faultTolerant.create(customers, form)
                                : faultTolerant.createWithoutCall(customers, form))
                        .split(" ");
                return idAndReplayed[0] + " " + (faultTolerant.attemptsSoFar() - before) + " " + idAndReplayed[1];
            case "rest-client":
                return restClientCall(form.getEntity());
            default:
                throw new IllegalArgumentException(
                        "how: invoker, naive, fault-tolerance, fault-tolerance-alone or rest-client; was " + how);
        }
    }

    /** A call opened around the Rest Client method, only to read whether its answer was a replay. */
    private String restClientCall(Form form) {
        int before = AttemptCounter.SENT.get();
        try (IdempotentCall call = IdempotentCall.open()) {
            String body = restClient.create(API_KEY, form);
            Matcher id = ID.matcher(body);
            if (!id.find()) {
                throw new IllegalStateException("no id in " + body);
            }
            return id.group(1) + " " + (AttemptCounter.SENT.get() - before) + " " + call.isReplayed();
        }
    }

    private static String keyedCall(WebTarget customers, Entity<Form> form) {
        CallResult<Response> result = IdempotentInvoker.invoke(
                "POST",
                customers,
                form,
                t -> t.request(MediaType.APPLICATION_JSON).header("Authorization", API_KEY),
                POLICY);
        try (Response answer = result.response()) {
            return idOf(answer) + " " + result.attempts() + " " + result.isReplayed();
        }
    }

    /** What a caller without the library writes: send again on a failure, each attempt a request of its own. */
    private static String naiveCall(WebTarget customers, Entity<Form> form) {
        for (int attempt = 1; ; attempt++) {
            try (Response answer = customers
                    .request(MediaType.APPLICATION_JSON)
                    .header("Authorization", API_KEY)
                    .post(form)) {
                return idOf(answer) + " " + attempt + " false";
            } catch (ProcessingException lost) {
                if (attempt == NAIVE_ATTEMPTS) {
                    throw lost;
                }
            }
        }
    }

    static String idOf(Response answer) {
        String body = answer.readEntity(String.class);
        Matcher id = ID.matcher(body);
        if (answer.getStatus() != 200 || !id.find()) {
            throw new IllegalStateException("answer " + answer.getStatus() + ": " + body);
        }
        return id.group(1);
    }
}
