package dev.idempotency.sample;

import jakarta.json.JsonException;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Jersey 3.0 (GlassFish 6.2) reports a body that is not JSON as a {@code ProcessingException}, with JSON-B's
 * exception and the parser's below it: that case gets the same problem as on WildFly. Any other failure to read or
 * write an entity stays the 500 it was.
 */
@Provider
public class UnreadableEntityMapper implements ExceptionMapper<ProcessingException> {
    @Override
    public Response toResponse(ProcessingException exception) {
        for (Throwable cause = exception.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonException) {
                return MalformedJsonMapper.problem();
            }
        }
        return Response.serverError().build();
    }
}
