package dev.idempotency.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * How an OpenAPI document changed, member by member: for the unit tests of the OpenAPI filter and for the
 * container test that fetches the document from a real server (through this module's test jar).
 */
public final class DocumentDifferences {
    private DocumentDifferences() {}

    /**
     * Walks the document as it was: a member or array item of it that differs in the other is {@code changed}; a
     * member, or an array item past its end, that only the other has is {@code added}.
     */
    public static void compare(
            String pointer, JsonNode before, JsonNode after, List<String> changed, Set<String> added) {
        if (before.isObject() && after.isObject()) {
            for (Iterator<String> names = after.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                String child = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
                if (before.has(name)) {
                    compare(child, before.get(name), after.get(name), changed, added);
                } else {
                    added.add(child);
                }
            }
            before.fieldNames().forEachRemaining(name -> {
                if (!after.has(name)) {
                    changed.add(pointer + "/" + name + " removed");
                }
            });
        } else if (before.isArray() && after.isArray() && after.size() >= before.size()) {
            for (int i = 0; i < after.size(); i++) {
                if (i < before.size()) {
                    compare(pointer + "/" + i, before.get(i), after.get(i), changed, added);
                } else {
                    added.add(pointer + "/" + i);
                }
            }
        } else if (!before.equals(after)) {
            changed.add(pointer + ": " + before + " became " + after);
        }
    }
}
