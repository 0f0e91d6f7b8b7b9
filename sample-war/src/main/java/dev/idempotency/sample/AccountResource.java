package dev.idempotency.sample;

import jakarta.enterprise.context.RequestScoped;
import jakarta.json.Json;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;
import java.util.Optional;

/**
 * The chapter's example: accounts with a balance, and debits. It is an ordinary resource: it knows
 * nothing of idempotency keys. {@code @Transactional} joins the idempotency filter's transaction when
 * the filter began one, and begins its own for requests the filter passes through.
 */
@Path("/accounts")
@RequestScoped
@Produces(MediaType.APPLICATION_JSON)
public class AccountResource {
    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    @Context
    SecurityContext security;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public Response open(JsonObject request, @Context UriInfo uri) {
        Optional<Long> balance = positiveWholeNumber(request, "balance");
        if (balance.isEmpty()) {
            return invalid("balance");
        }
        Account account = new Account(caller(), balance.get());
        entityManager.persist(account);
        entityManager.flush();
        return Response.created(uri.getAbsolutePathBuilder()
                        .path(account.id().toString())
                        .build())
                .entity(view(account))
                .build();
    }

    @GET
    @Path("/{id}")
    public Response get(@PathParam("id") long id) {
        Account account = entityManager.find(Account.class, id);
        if (account == null || !account.isOwnedBy(caller())) {
            return notFound(id);
        }
        return Response.ok(view(account)).build();
    }

    @POST
    @Path("/{id}/debits")
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public Response debit(@PathParam("id") long id, JsonObject request) {
        Optional<Long> amount = positiveWholeNumber(request, "amount");
        if (amount.isEmpty()) {
            return invalid("amount");
        }
        Account account = entityManager.find(Account.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (account == null || !account.isOwnedBy(caller())) {
            return notFound(id);
        }
        if (!account.debit(amount.get())) {
            return Problems.problem(
                    409,
                    "insufficient-balance",
                    "Insufficient balance",
                    "account " + id + " has a balance of " + account.balance() + ", less than the debit of "
                            + amount.get() + "; nothing was debited");
        }
        return Response.ok(Json.createObjectBuilder()
                        .add("balance", account.balance())
                        .build())
                .build();
    }

    private String caller() {
        return security.getUserPrincipal().getName();
    }

    private static JsonObject view(Account account) {
        return Json.createObjectBuilder()
                .add("id", account.id())
                .add("balance", account.balance())
                .build();
    }

    private static Optional<Long> positiveWholeNumber(JsonObject request, String name) {
        if (request == null || !(request.get(name) instanceof JsonNumber number) || !number.isIntegral()) {
            return Optional.empty();
        }
        try {
            long value = number.longValueExact();
            return value > 0 ? Optional.of(value) : Optional.empty();
        } catch (ArithmeticException tooLarge) {
            return Optional.empty();
        }
    }

    private static Response invalid(String field) {
        return Problems.problem(
                400,
                "invalid-" + field,
                "Invalid " + field,
                "send a JSON object with a positive whole number '" + field + "', such as {\"" + field + "\": 100}");
    }

    private static Response notFound(long id) {
        return Problems.problem(404, "account-not-found", "Account not found", "you have no account " + id);
    }
}
