package dev.idempotency.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
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
    /** Where a form body sits in the canonical request. */
    private static final String FORM = "/body/form";

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
        if (path.equals(FORM) && mine.isArray() && theirs.isArray()) {
            collectFormFields(mine, theirs, paths);
        } else if (mine.isObject() && theirs.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            mine.fieldNames().forEachRemaining(names::add);
            theirs.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                JsonNode a = mine.get(name);
                JsonNode b = theirs.get(name);
                String child = path + "/" + escape(name);
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

    /**
     * A form is stored as sorted {@code [name, value]} pairs, so a changed value would show as an index; name
     * the field instead ({@code /body/form/quantity}), and a repeated field's value by its position among that
     * field's sorted values ({@code /body/form/tag/1}).
     */
    private static void collectFormFields(JsonNode mine, JsonNode theirs, List<String> paths) {
        Map<String, List<String>> a = fields(mine);
        Map<String, List<String>> b = fields(theirs);
        TreeSet<String> names = new TreeSet<>(a.keySet());
        names.addAll(b.keySet());
        for (String name : names) {
            List<String> x = a.getOrDefault(name, Collections.emptyList());
            List<String> y = b.getOrDefault(name, Collections.emptyList());
            String field = FORM + "/" + escape(name);
            if (x.size() != y.size() || x.size() == 1) {
                if (!x.equals(y)) {
                    paths.add(field);
                }
                continue;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!x.get(i).equals(y.get(i))) {
                    paths.add(field + "/" + i);
                }
            }
        }
    }

    private static Map<String, List<String>> fields(JsonNode pairs) {
        Map<String, List<String>> fields = new TreeMap<>();
        for (JsonNode pair : pairs) {
            fields.computeIfAbsent(pair.path(0).asText(), n -> new ArrayList<>())
                    .add(pair.path(1).asText());
        }
        return fields;
    }

    /** RFC 6901: a member name as one JSON pointer token. */
    private static String escape(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }
}
