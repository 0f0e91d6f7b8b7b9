package dev.idempotency.sample.calls;

import dev.idempotency.DerivedKeyClientFilter;
import dev.idempotency.IdempotentExecution;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.Entity;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * An order that needs another service: a row in {@code caller_order} (in the filter's transaction), then a call to
 * the callee with the derived key, then the answer. With {@code "failAfterCall": true} in the body, the first
 * attempt for a key fails after the call, as a crash or a later step would, so its order rolls back; the retry
 * (the same body, the same key) runs again and calls the callee with the same derived key.
 */
@RequestScoped // a CDI bean, so that the container injects its datasource
@Path("orders")
public class CallerResource {
    /** Keys whose first attempt has failed: in memory, so the rollback that undoes the order does not undo it. */
    private static final Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    @Resource(lookup = "java:jboss/datasources/SampleDS")
    private DataSource dataSource;

    @Context
    private UriInfo uri;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response placeOrder(String body) throws SQLException {
        IdempotentExecution execution = IdempotentExecution.current().orElseThrow();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO caller_order (request_key) VALUES (?)")) {
            insert.setString(1, execution.key());
            insert.executeUpdate();
        }

        // The callee is on this server: the same scheme, host and port as this request.
        URI callee = uri.getBaseUri().resolve("/callee/api/effects");
        Client client = ClientBuilder.newClient().register(DerivedKeyClientFilter.class);
        try (Response answer = client.target(callee)
                .request(MediaType.APPLICATION_JSON)
                .header("X-Gateway-User", "caller-service")
                .post(Entity.json("{}"))) {
            String calleeBody = answer.readEntity(String.class);
            String replayed = String.valueOf(answer.getHeaderString("Idempotent-Replayed"));
            if (body.contains("\"failAfterCall\": true") && FAILED_ONCE.add(execution.key())) {
                return Response.serverError()
                        .entity("{\"failed\":\"after calling the callee\"}")
                        .build();
            }
            return Response.ok("{\"calleeStatus\":" + answer.getStatus() + ",\"calleeReplayed\":\"" + replayed
                            + "\",\"callee\":" + calleeBody + ",\"derivedKey\":\""
                            + execution.deriveKey("POST " + callee) + "\"}")
                    .build();
        } finally {
            client.close();
        }
    }
}
