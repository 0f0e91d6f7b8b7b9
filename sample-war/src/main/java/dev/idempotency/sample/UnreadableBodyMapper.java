package dev.idempotency.sample;

import jakarta.json.JsonException;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Open Liberty's JSON-P provider reports a body that is not JSON as a {@code BadRequestException}, an empty
 * 400, with the parser's exception as its cause: that case gets the same problem as on WildFly. Any other
 * bad request keeps the response the runtime chose.
 */
@Provider
public class UnreadableBodyMapper implements ExceptionMapper<BadRequestException> {
    @Override
    public Response toResponse(BadRequestException exception) {
        return exception.getCause() instanceof JsonException ? MalformedJsonMapper.problem() : exception.getResponse();
    }
}
