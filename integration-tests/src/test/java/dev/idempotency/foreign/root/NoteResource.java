package dev.idempotency.foreign.root;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code POST /} adds a note and answers 201 with it; {@code GET /} counts the notes. */
@Stateless
@Path("")
@Produces(MediaType.APPLICATION_JSON)
public class NoteResource {
    @PersistenceContext
    EntityManager entityManager;

    public static class NewNote {
        public String content;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response add(NewNote request) {
        Note note = new Note();
        note.content = request.content;
        entityManager.persist(note);
        entityManager.flush();
        return Response.status(Response.Status.CREATED).entity(note).build();
    }

    @GET
    public Map<String, Long> count() {
        return Map.of(
                "notes",
                entityManager
                        .createQuery("SELECT COUNT(n) FROM Note n", Long.class)
                        .getSingleResult());
    }
}
