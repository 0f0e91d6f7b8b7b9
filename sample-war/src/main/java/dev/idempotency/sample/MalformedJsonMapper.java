package dev.idempotency.sample;

import jakarta.json.JsonException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A request body that is not JSON is the client's mistake: a 400 problem that says so, not the 500 with a
 * parser's message that the JSON-P provider's exception would otherwise become on WildFly. (Open Liberty wraps
 * it in a {@code BadRequestException}; see {@link UnreadableBodyMapper}.) (The idempotency filter
 * stores only 2xx responses, so the key stays free for a corrected request.)
 */
@Provider
public class MalformedJsonMapper implements ExceptionMapper<JsonException> {
    @Override
    public Response toResponse(JsonException exception) {
        return problem();
    }

    static Response problem() {
        return Problems.problem(
                400,
                "malformed-json",
                "Malformed JSON",
                "the request body is not a JSON object; send one such as {\"amount\": 100}");
    }
}
