package dev.idempotency.sample.faults;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The test's side of {@link Gates}: how many requests wait at a gate, and opening it. Not a covered operation. */
@Path("/test/gates/{name}")
@Produces(MediaType.TEXT_PLAIN)
public class GateResource {
    @GET
    public String arrived(@PathParam("name") String name) {
        return Integer.toString(Gates.arrivedAt(name));
    }

    @POST
    public String open(@PathParam("name") String name) {
        Gates.open(name);
        return "open";
    }
}
