package dev.idempotency.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotency.ConfigurationException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The parts of a request that an operation leaves out of its identity ({@code ignore=} in the operations
 * setting): members a client changes on every retry of the same intent, such as a timestamp or a nonce. Each is a
 * JSON pointer into the canonical request, in the words a 422's {@code mismatches} use:
 *
 * <ul>
 *   <li>{@code /body/json/<member>[/<member>...]}: a member of a JSON object in the body, at any depth;
 *   <li>{@code /body/form/<name>}: every pair of that name in an urlencoded form body, and every part of that name
 *       in a {@code multipart/form-data} body;
 *   <li>{@code /query/<name>}: every pair of that name in the query string, as sent.
 * </ul>
 *
 * Nothing else can be left out: the method, the path and the operation are what the request is, and an opaque
 * body is compared by its digest only. A part the request lacks is simply absent. The canonical request then
 * lists the pointers it left out under {@code ignored}, so a record says what its comparison did not cover, and a
 * changed list is a different request: change the contract's version with it.
 *
 * <p>Stateless and thread-safe.
 */
public final class IgnoredParts {
    private static final Pattern POINTER = Pattern.compile("/(body/json(/[^/]*)+|body/form/[^/]+|query/[^/]+)");

    private IgnoredParts() {}

    /**
     * @param contract names the operation in messages
     * @param text pointers separated by {@code |}
     * @throws ConfigurationException naming a pointer that is not one of the three forms, or given twice
     */
    public static List<String> parse(String contract, String text) {
        LinkedHashSet<String> pointers = new LinkedHashSet<>();
        for (String pointer : text.split("\\|", -1)) {
            if (!POINTER.matcher(pointer).matches()) {
                throw new ConfigurationException("operations: ignore= of " + contract + " names '" + pointer
                        + "', which is not a part a client may vary; write /body/json/<member> (at any depth),"
                        + " /body/form/<name> or /query/<name>, separated by |");
            }
            if (!pointers.add(pointer)) {
                throw new ConfigurationException(
                        "operations: ignore= of " + contract + " names '" + pointer + "' twice");
            }
        }
        return Collections.unmodifiableList(new ArrayList<>(pointers));
    }

    /** The query parameter names to leave out, as sent (the canonical query is not decoded). */
    static List<String> queryNames(List<String> pointers) {
        return lastTokens(pointers, "/query/");
    }

    /** Leaves the ignored parts out of a canonical body ({@code {"json": ...}} or {@code {"form": [...]}}). */
    static void removeFromBody(JsonNode body, List<String> pointers) {
        if (body.has("json")) {
            for (String pointer : pointers) {
                if (pointer.startsWith("/body/json/")) {
                    removeMember(body, tokens(pointer.substring("/body".length())));
                }
            }
        } else if (body.has("form")) {
            List<String> names = lastTokens(pointers, "/body/form/");
            Iterator<JsonNode> pairs = ((ArrayNode) body.get("form")).elements();
            while (pairs.hasNext()) {
                if (names.contains(pairs.next().get(0).asText())) {
                    pairs.remove();
                }
            }
        }
    }

    /** Removes the member the tokens lead to, if every step is an object that has it. */
    private static void removeMember(JsonNode root, List<String> tokens) {
        JsonNode parent = root;
        for (String token : tokens.subList(0, tokens.size() - 1)) {
            parent = parent.isObject() ? parent.get(token) : null;
            if (parent == null) {
                return;
            }
        }
        if (parent.isObject()) {
            ((ObjectNode) parent).remove(tokens.get(tokens.size() - 1));
        }
    }

    private static List<String> lastTokens(List<String> pointers, String prefix) {
        List<String> names = new ArrayList<>();
        for (String pointer : pointers) {
            if (pointer.startsWith(prefix)) {
                names.add(unescape(pointer.substring(prefix.length())));
            }
        }
        return names;
    }

    /** A pointer's reference tokens, unescaped (RFC 6901: {@code ~1} is {@code /}, {@code ~0} is {@code ~}). */
    private static List<String> tokens(String pointer) {
        List<String> tokens = new ArrayList<>();
        for (String token : pointer.substring(1).split("/", -1)) {
            tokens.add(unescape(token));
        }
        return tokens;
    }

    private static String unescape(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }
}
