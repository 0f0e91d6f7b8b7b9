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
 */
public record StoredResponse(int status, Map<String, List<String>> headers, byte[] body) {}
