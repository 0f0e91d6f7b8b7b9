package dev.idempotency.sample.keyedcaller;

import dev.idempotency.client.IdempotentCall;
import dev.idempotency.client.cdi.KeyedCall;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.Form;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.faulttolerance.Retry;

/**
 * The customer creation as a MicroProfile application writes it: Fault Tolerance's {@code @Retry} on a lost answer.
 * {@link #create} also carries {@code @KeyedCall}, whose interceptor runs outside {@code @Retry}, so its retries
 * share one key; {@link #createWithoutCall} does not, so each of its attempts is keyed anew by the filter.
 */
@ApplicationScoped
public class FaultTolerantCustomers {
    private final AtomicInteger attempts = new AtomicInteger();

    /** The attempts the method bodies ran so far, for the caller to count its retries (through the proxy). */
    public int attemptsSoFar() {
        return attempts.get();
    }

    @KeyedCall
    @Retry(maxRetries = 4, delay = 20, jitter = 0, retryOn = ProcessingException.class)
    public String create(WebTarget customers, Entity<Form> form) {
        String id = send(customers, form);
        return id + " " + IdempotentCall.current().orElseThrow().isReplayed();
    }

    @Retry(maxRetries = 4, delay = 20, jitter = 0, retryOn = ProcessingException.class)
    public String createWithoutCall(WebTarget customers, Entity<Form> form) {
        return send(customers, form) + " false";
    }

    private String send(WebTarget customers, Entity<Form> form) {
        attempts.incrementAndGet();
        try (Response answer = customers
                .request(MediaType.APPLICATION_JSON)
                .header("Authorization", CallerRunResource.API_KEY)
                .post(form)) {
            return CallerRunResource.idOf(answer);
        }
    }
}
