package dev.idempotency.sample.faults;

import dev.idempotency.sample.Account;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.TransactionSynchronizationRegistry;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * Test-only endpoints that write a debit into the filter's transaction and then fail in one particular
 * way. Deliberately not {@code @Transactional}: the failure must be judged by the filter alone.
 */
@Path("/test/accounts/{id}")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class FaultResource {
    /** A row that violates a deferred foreign key: the insert succeeds, the COMMIT fails. */
    public static final String ORPHAN_INSERT = "INSERT INTO commit_probe (parent_id) VALUES (-1)";

    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    @Resource
    TransactionSynchronizationRegistry transactions;

    /** Debits, flushes the debit to the database, then throws; RESTEasy turns that into a 500. */
    @POST
    @Path("/explode")
    public JsonObject explode(@PathParam("id") long id, JsonObject request) {
        debit(id, request);
        throw new IllegalStateException("failing on purpose after the debit reached the database");
    }

    /** Debits and answers 200, but leaves a row that makes the COMMIT fail. */
    @POST
    @Path("/commit-failure")
    public JsonObject commitFailure(@PathParam("id") long id, JsonObject request) {
        long balance = debit(id, request);
        entityManager.createNativeQuery(ORPHAN_INSERT).executeUpdate();
        return Json.createObjectBuilder().add("balance", balance).build();
    }

    /** Debits, marks the transaction rollback-only, and still answers 200. */
    @POST
    @Path("/rollback-only")
    public JsonObject rollbackOnly(@PathParam("id") long id, JsonObject request) {
        long balance = debit(id, request);
        transactions.setRollbackOnly();
        return Json.createObjectBuilder().add("balance", balance).build();
    }

    /**
     * Debits, then holds the claim (at the {@link Gates gate} named by {@code X-Test-Gate} until the test opens
     * it, or for {@code X-Test-Sleep-Millis}), then answers 200, or a 500 problem when {@code X-Test-Fail:
     * true}. Headers are not part of a request's identity, so a retry can behave differently from the original.
     */
    @POST
    @Path("/slow")
    public Response slow(
            @PathParam("id") long id,
            JsonObject request,
            @HeaderParam("X-Test-Sleep-Millis") @DefaultValue("0") long sleepMillis,
            @HeaderParam("X-Test-Fail") @DefaultValue("false") boolean fail,
            @HeaderParam("X-Test-Gate") String gate)
            throws InterruptedException {
        long balance = debit(id, request);
        if (gate != null) {
            Gates.holdAt(gate);
        }
        Thread.sleep(sleepMillis);
        if (fail) {
            return Response.status(500).entity("{\"failed\": true}").build();
        }
        return Response.ok(Json.createObjectBuilder().add("balance", balance).build())
                .build();
    }

    /** Debits and answers with a session cookie and a custom header, neither of which may be replayed. */
    @POST
    @Path("/cookie")
    public Response cookie(@PathParam("id") long id, JsonObject request) {
        long balance = debit(id, request);
        return Response.ok(Json.createObjectBuilder().add("balance", balance).build())
                .header("Set-Cookie", "session=secret-of-the-first-caller; Path=/; HttpOnly")
                .header("X-Request-Trace", "first")
                .build();
    }

    /** Debits and answers with {@code size} bytes of body. */
    @POST
    @Path("/large")
    @Produces(MediaType.TEXT_PLAIN)
    public String large(@PathParam("id") long id, JsonObject request) {
        debit(id, request);
        return "x".repeat(request.getInt("size"));
    }

    private long debit(long id, JsonObject request) {
        Account account = entityManager.find(Account.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (!account.debit(request.getJsonNumber("amount").longValue())) {
            throw new IllegalArgumentException("test setup: balance too small");
        }
        entityManager.flush();
        return account.balance();
    }
}
