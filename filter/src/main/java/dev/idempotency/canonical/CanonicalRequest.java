package dev.idempotency.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The normalized request that is stored with a record and compared on every retry: canonical JSON of
 * the method, operation contract, concrete path, sorted query and canonical body. Two requests are the
 * same request exactly when their texts are equal.
 *
 * <p>Immutable and thread-safe.
 *
 * @param text the canonical JSON text
 */
public record CanonicalRequest(String text) {
    public CanonicalRequest {
        Objects.requireNonNull(text, "text");
    }

    /**
     * The JSON paths at which {@code other} differs from this request, such as {@code /body/json/amount},
     * so a 422 can tell the client what changed. Empty when the two are equal.
     */
    public List<String> differencesFrom(String other) {
        List<String> paths = new ArrayList<>();
        collect(CanonicalJson.parseCanonical(text), CanonicalJson.parseCanonical(other), "", paths);
        return paths;
    }

    private static void collect(JsonNode mine, JsonNode theirs, String path, List<String> paths) {
        if (mine.isObject() && theirs.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            mine.fieldNames().forEachRemaining(names::add);
            theirs.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode a = mine.get(name);
                JsonNode b = theirs.get(name);
                String child = path + "/" + name.replace("~", "~0").replace("/", "~1");
                if (a == null || b == null) {
                    paths.add(child);
                } else {
                    collect(a, b, child, paths);
                }
            }
        } else if (mine.isArray() && theirs.isArray() && mine.size() == theirs.size()) {
            Iterator<JsonNode> a = mine.elements();
            Iterator<JsonNode> b = theirs.elements();
            for (int i = 0; a.hasNext(); i++) {
                collect(a.next(), b.next(), path + "/" + i, paths);
            }
        } else if (!CanonicalJson.write(mine).equals(CanonicalJson.write(theirs))) {
            paths.add(path.isEmpty() ? "/" : path);
        }
    }
}
