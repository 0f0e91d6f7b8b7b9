package dev.idempotency.sample;

import jakarta.json.Json;
import jakarta.ws.rs.core.Response;

/** The sample's own RFC 9457 problem responses. */
public final class Problems {
    static final String TYPE_PREFIX = "urn:dev.idempotency:sample:problem:";

    private Problems() {}

    public static Response problem(int status, String slug, String title, String detail) {
        String body = Json.createObjectBuilder()
                .add("type", TYPE_PREFIX + slug)
                .add("title", title)
                .add("status", status)
                .add("detail", detail)
                .build()
                .toString();
        return Response.status(status)
                .type("application/problem+json")
                .entity(body)
                .build();
    }
}
