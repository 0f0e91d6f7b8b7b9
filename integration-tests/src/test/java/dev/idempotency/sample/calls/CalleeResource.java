package dev.idempotency.sample.calls;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The other service: one effect per call, a row in {@code callee_effect} holding the key it was called with. It is
 * covered by the filter, so a call with a key it has seen gets the stored answer instead of a second effect.
 */
@RequestScoped // a CDI bean, so that the container injects its datasource
@Path("effects")
public class CalleeResource {
    @Resource(lookup = "java:jboss/datasources/SampleDS")
    private DataSource dataSource;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public String makeEffect(@HeaderParam("Idempotency-Key") String key) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO callee_effect (request_key) VALUES (?)", new String[] {"id"})) {
            insert.setString(1, key);
            insert.executeUpdate();
            try (ResultSet ids = insert.getGeneratedKeys()) {
                ids.next();
                return "{\"effect\":" + ids.getLong(1) + "}";
            }
        }
    }
}
