package dev.idempotency.servlet;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Sends a complete, known response in one go: the filter only ever writes responses whose every byte
 * is already decided. Stateless and thread-safe.
 */
public final class ResponseWriter {
    private ResponseWriter() {}

    /**
     * Writes this status, these headers and this body. {@code Content-Length} is always the body's length;
     * {@code Content-Length} and {@code Transfer-Encoding} entries in {@code headers} are ignored, because a
     * stored value may be stale. Headers the container set before the filter ran (such as {@code
     * Cache-Control} on authenticated responses) stay unless {@code headers} names them too.
     */
    public static void send(HttpServletResponse response, int status, Map<String, List<String>> headers, byte[] body)
            throws IOException {
        response.setStatus(status);
        headers.forEach((name, values) -> {
            if (name.equalsIgnoreCase("Content-Type")) {
                // setContentType, not a header, so the container does not append a charset of its own.
                response.setContentType(values.get(0));
            } else if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding")) {
                response.setHeader(name, values.get(0));
                values.stream().skip(1).forEach(value -> response.addHeader(name, value));
            }
        });
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
        response.flushBuffer();
    }
}
