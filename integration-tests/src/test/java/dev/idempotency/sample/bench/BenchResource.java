package dev.idempotency.sample.bench;

import dev.idempotency.sample.Account;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Benchmark-only endpoints, added to the benchmark's copies of the sample: the chapter's own function
 * (scenario d), a payment that writes what a real one does besides the debit (scenario e), and an endpoint
 * that touches no database (the hop benchmark's ceiling).
 */
@Path("/bench")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class BenchResource {
    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    /** The pattern done entirely inside the database: one statement, the chapter's {@code debit_once}. */
    @POST
    @Path("/chapter/{id}/debits")
    @Transactional
    public Response chapterDebit(
            @PathParam("id") long id, @HeaderParam("Idempotency-Key") String key, JsonObject request) {
        Object reply = entityManager
                .createNativeQuery("SELECT chapter.debit_once(?1, ?2, ?3)::text")
                .setParameter(1, id)
                .setParameter(2, key)
                .setParameter(3, request.getJsonNumber("amount").longValueExact())
                .getSingleResult();
        return Response.ok(reply.toString()).build();
    }

    /**
     * The same request and a response of the same shape with no database at all: the ceiling that HTTP, JAX-RS
     * and JSON on this machine leave for any endpoint, a replay included.
     */
    @POST
    @Path("/accounts/{id}/nothing")
    public Response nothing(@PathParam("id") long id, JsonObject request) {
        return Response.ok("{\"balance\":" + request.getJsonNumber("amount").longValueExact() + "}")
                .build();
    }

    /** The debit, plus a ledger row and an outbox row, in one transaction. */
    @POST
    @Path("/accounts/{id}/payments")
    @Transactional
    public Response pay(@PathParam("id") long id, JsonObject request) {
        long amount = request.getJsonNumber("amount").longValueExact();
        Account account = entityManager.find(Account.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (account == null || !account.debit(amount)) {
            return Response.status(409).build();
        }
        entityManager
                .createNativeQuery("INSERT INTO bench_ledger (account_id, amount) VALUES (?1, ?2)")
                .setParameter(1, id)
                .setParameter(2, -amount)
                .executeUpdate();
        String payload = Json.createObjectBuilder()
                .add("type", "account-debited")
                .add("account", id)
                .add("amount", amount)
                .add("balance", account.balance())
                .build()
                .toString();
        entityManager
                .createNativeQuery("INSERT INTO bench_outbox (aggregate_id, payload) VALUES (?1, CAST(?2 AS jsonb))")
                .setParameter(1, id)
                .setParameter(2, payload)
                .executeUpdate();
        return Response.ok(Json.createObjectBuilder()
                        .add("balance", account.balance())
                        .build())
                .build();
    }
}
