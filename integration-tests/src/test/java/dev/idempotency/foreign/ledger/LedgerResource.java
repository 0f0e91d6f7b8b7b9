package dev.idempotency.foreign.ledger;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Map;

/** A stateless EJB that is also the resource; the container authenticates every caller. */
@Stateless
@Path("entries")
@Produces(MediaType.APPLICATION_JSON)
public class LedgerResource {
    @PersistenceContext
    EntityManager entityManager;

    public static class NewEntry {
        public long amount;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Entry post(NewEntry request, @Context SecurityContext security) {
        Entry entry = new Entry();
        entry.owner = security.getUserPrincipal().getName();
        entry.amount = request.amount;
        entityManager.persist(entry);
        entityManager.flush();
        return entry;
    }

    @GET
    @Path("count")
    public Map<String, Long> count() {
        return Map.of(
                "entries",
                entityManager
                        .createQuery("SELECT COUNT(e) FROM Entry e", Long.class)
                        .getSingleResult());
    }
}
