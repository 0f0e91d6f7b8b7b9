package dev.idempotency.sample.faults;

import dev.idempotency.sample.messaging.CreditQueues;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.Queue;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;

/** Publishes a credit event to the failing projection's queue only. */
@Path("/test/accounts/{id}/failing-credits")
@RequestScoped
public class FailingCreditsResource {
    @Inject
    JMSContext jms;

    @Resource(lookup = FailingCreditProjection.QUEUE)
    Queue queue;

    @POST
    @Consumes("application/json")
    public void publish(@PathParam("id") long id, JsonObject request) {
        String payload = Json.createObjectBuilder()
                .add("accountId", id)
                .add("amount", request.getJsonNumber("amount").longValue())
                .build()
                .toString();
        jms.createProducer()
                .setProperty(CreditQueues.MESSAGE_ID, request.getString("messageId"))
                .send(queue, payload);
    }
}
