package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which response statuses are final outcomes worth storing and replaying. Always every 2xx; optionally
 * chosen 4xx business refusals (for example 409 insufficient balance), which is an explicit API
 * policy: once stored, a retry with the same key gets the refusal back even if the balance grew since.
 * A 5xx is never storable: the request failed and the client may retry.
 *
 * <p>Immutable and thread-safe.
 */
public final class StorableStatuses {
    public static final StorableStatuses DEFAULT = new StorableStatuses(Set.of());

    private final Set<Integer> refusals;

    private StorableStatuses(Set<Integer> refusals) {
        this.refusals = Set.copyOf(refusals);
    }

    /**
     * Parses {@code 2xx} optionally followed by 4xx codes: {@code "2xx, 409, 422"}.
     *
     * @throws ConfigurationException if {@code 2xx} is missing, or an entry is not a 4xx code
     */
    public static StorableStatuses parse(String text) {
        Set<Integer> refusals = new TreeSet<>();
        boolean successes = false;
        for (String entry : text.split(",")) {
            String item = entry.trim();
            if (item.equalsIgnoreCase("2xx")) {
                successes = true;
            } else if (item.matches("4[0-9][0-9]")) {
                refusals.add(Integer.parseInt(item));
            } else {
                throw new ConfigurationException("storable-statuses takes '2xx' and optional 4xx codes such as"
                        + " '2xx, 409'; '" + item + "' is not allowed (a 5xx is never stored)");
            }
        }
        if (!successes) {
            throw new ConfigurationException("storable-statuses must include '2xx', was '" + text + "'");
        }
        return new StorableStatuses(refusals);
    }

    public boolean isStorable(int status) {
        return (status >= 200 && status < 300) || refusals.contains(status);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("2xx");
        new TreeSet<>(refusals).forEach(code -> text.append(", ").append(code));
        return text.toString();
    }
}
