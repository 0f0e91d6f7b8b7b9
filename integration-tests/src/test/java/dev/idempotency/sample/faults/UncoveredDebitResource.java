package dev.idempotency.sample.faults;

import dev.idempotency.sample.Account;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * A test-only debit that the test configuration deliberately does not cover: the filter passes it through,
 * so every request with the same key debits again. SampleWithTestKitIT shows that the test kit catches it.
 * {@code @Transactional}, because the filter begins no transaction for a request it does not cover.
 */
@Path("/test/uncovered/accounts/{id}/debits")
@RequestScoped
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class UncoveredDebitResource {
    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    @POST
    @Transactional
    public JsonObject debit(@PathParam("id") long id, JsonObject request) {
        Account account = entityManager.find(Account.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (!account.debit(request.getJsonNumber("amount").longValue())) {
            throw new IllegalArgumentException("test setup: balance too small");
        }
        return Json.createObjectBuilder().add("balance", account.balance()).build();
    }
}
