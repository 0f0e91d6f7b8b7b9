package dev.idempotency.sample.openapi;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * A resource documented by its own annotations: each method lists its responses, so the server generates no
 * default one and the document is the same on every server. Placing an order declares a 409 of its own, which
 * the OpenAPI additions must keep. Nothing here touches a database: the test reads the document only.
 */
@Path("")
@Produces(MediaType.APPLICATION_JSON)
public class OrdersResource {
    @POST
    @Path("orders")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "The order was placed")
    @APIResponse(responseCode = "409", description = "The order number is taken")
    public Response place(Map<String, Object> order) {
        return Response.status(201).entity(Map.of("id", 1)).build();
    }

    @POST
    @Path("orders/{orderId}/cancellations")
    @APIResponse(responseCode = "200", description = "The order was cancelled")
    public Map<String, Object> cancel(@PathParam("orderId") long orderId) {
        return Map.of("id", orderId, "cancelled", true);
    }

    @GET
    @Path("orders/{orderId}")
    @APIResponse(responseCode = "200", description = "The order")
    public Map<String, Object> order(@PathParam("orderId") long orderId) {
        return Map.of("id", orderId);
    }

    @POST
    @Path("quotes")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "A quote")
    public Map<String, Object> quote(Map<String, Object> request) {
        return Map.of("price", 10);
    }
}
