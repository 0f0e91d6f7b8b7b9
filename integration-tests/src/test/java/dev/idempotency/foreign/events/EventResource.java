package dev.idempotency.foreign.events;

import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/** {@code POST /api/events} adds an event and answers 201 with it; {@code GET /api/events/count} counts them. */
@RequestScoped
@Path("events")
@Produces(MediaType.APPLICATION_JSON)
public class EventResource {
    @Inject
    EventDao events;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Transactional
    public Response add(Event event) {
        events.create(event);
        return Response.status(Response.Status.CREATED).entity(event).build();
    }

    @GET
    @Path("count")
    public Map<String, Long> count() {
        return Map.of("events", events.count());
    }
}
