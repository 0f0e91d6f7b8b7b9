package dev.idempotency.store;

import java.util.List;
import java.util.Map;

/**
 * The final response as the store keeps it: status, allowlisted headers and body. Plain data; the store
 * does not know where it came from.
 *
 * @param status the response status
 * @param headers allowlisted header names to their values, in the order to replay them
 * @param body the exact response bytes
 * @param writerCharset the charset of the writer the application wrote its body through, or {@code null} if it
 *     wrote bytes; a replay writes through the container's writer too, so that the container labels the text
 *     exactly as it did the first time (WildFly adds the charset to {@code Content-Type}, Open Liberty does not)
 */
public record StoredResponse(int status, Map<String, List<String>> headers, byte[] body, String writerCharset) {
    /** A response whose body was written as bytes. */
    public StoredResponse(int status, Map<String, List<String>> headers, byte[] body) {
        this(status, headers, body, null);
    }
}
