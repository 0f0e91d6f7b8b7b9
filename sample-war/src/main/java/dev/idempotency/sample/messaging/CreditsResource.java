package dev.idempotency.sample.messaging;

import dev.idempotency.sample.Account;
import dev.idempotency.sample.Problems;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.Queue;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * Publishes a credit event, as an upstream system would: {@code POST /accounts/{id}/credits} with {@code
 * {"messageId": "<uuid>", "amount": 50}}. The event goes to every projection's queue; each projection applies
 * it once per message id, however often the event is delivered.
 */
@Path("/accounts/{id}/credits")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CreditsResource {
    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    @Inject
    JMSContext jms;

    @Resource(lookup = CreditQueues.BALANCE_PROJECTION)
    Queue balanceProjection;

    @Resource(lookup = CreditQueues.CREDIT_LEDGER)
    Queue creditLedger;

    @Context
    SecurityContext security;

    @POST
    public Response publish(@PathParam("id") long id, JsonObject request) {
        if (request == null
                || !(request.get("messageId") instanceof JsonString messageId)
                || messageId.getString().isBlank()
                || !(request.get("amount") instanceof JsonNumber amount)
                || !amount.isIntegral()
                || amount.longValue() <= 0) {
            return Problems.problem(
                    400,
                    "invalid-credit",
                    "Invalid credit",
                    "send {\"messageId\": \"<a non-empty id, such as a UUID>\", \"amount\": <a positive whole number>}");
        }
        Account account = entityManager.find(Account.class, id);
        if (account == null || !account.isOwnedBy(security.getUserPrincipal().getName())) {
            return Problems.problem(404, "account-not-found", "Account not found", "you have no account " + id);
        }
        String payload = Json.createObjectBuilder()
                .add("accountId", id)
                .add("amount", amount.longValue())
                .build()
                .toString();
        JMSProducer producer = jms.createProducer().setProperty(CreditQueues.MESSAGE_ID, messageId.getString());
        producer.send(balanceProjection, payload);
        producer.send(creditLedger, payload);
        return Response.accepted(Json.createObjectBuilder()
                        .add("messageId", messageId.getString())
                        .add("queued", true)
                        .build())
                .build();
    }
}
