package dev.idempotency.sample.keyedcaller;

import dev.idempotency.client.cdi.KeyedCall;
import dev.idempotency.client.jaxrs.IdempotencyKeyFilter;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Form;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/**
 * The service as a MicroProfile Rest Client interface, moved to keys with the two lines docs/client.md gives: the
 * filter as a provider, and {@code @KeyedCall} with the library's own retry (no Fault Tolerance). Its URL and
 * timeouts come from the caller WAR's {@code microprofile-config.properties}. {@link AttemptCounter} only counts
 * the requests for the test.
 */
@RegisterRestClient(configKey = "customers")
@RegisterProvider(IdempotencyKeyFilter.class)
@RegisterProvider(AttemptCounter.class)
@Path("v1/customers")
public interface CustomersClient {
    @POST
    @KeyedCall(retry = true, maxAttempts = 5)
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.APPLICATION_JSON)
    String create(@HeaderParam("Authorization") String authorization, Form form);
}
