package dev.idempotency.servlet;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything the application wrote, held back from the client until the transaction has ended.
 *
 * <p>Immutable once captured; thread-safe.
 *
 * @param status the final status
 * @param headers every header the application set, Content-Type included, in the order first set
 * @param body the complete body, the one array that is stored and then sent, never copied on the way
 * @param errorMessage the message given to {@code sendError}, or {@code null} if the application did not
 *     call it
 * @param overflowed whether the body outgrew the capture limit, so {@code body} is incomplete
 * @param writerCharset the charset of the writer the application wrote the body through, to send it through
 *     the container's writer again; {@code null} to send it as bytes (it was written as bytes, or through a
 *     writer an included resource asked for first, which the container does not label either)
 */
public record CapturedResponse(
        int status,
        Map<String, List<String>> headers,
        byte[] body,
        String errorMessage,
        boolean overflowed,
        String writerCharset) {

    /** Sends the captured response to the client, as the application meant it. */
    public void sendTo(HttpServletResponse response) throws IOException {
        if (errorMessage != null) {
            // Let the container render its error page, as it would have without the filter.
            headers.forEach((name, values) -> values.forEach(value -> response.addHeader(name, value)));
            response.sendError(status, errorMessage.isEmpty() ? null : errorMessage);
            return;
        }
        ResponseWriter.send(response, status, headers, body, writerCharset);
    }

    /** Only the headers named in {@code allowlist} (case-insensitive), for storing and replaying. */
    public Map<String, List<String>> headersIn(List<String> allowlist) {
        Map<String, Boolean> allowed = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        allowlist.forEach(name -> allowed.put(name, true));
        Map<String, List<String>> kept = new LinkedHashMap<>();
        headers.forEach((name, values) -> {
            if (allowed.containsKey(name)) {
                kept.put(name, values);
            }
        });
        return kept;
    }
}
