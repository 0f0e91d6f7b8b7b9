package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which response statuses are final outcomes worth storing and replaying. Always every 2xx; optionally
 * every 3xx (a POST answered with a redirect, such as 303 See Other), and chosen 4xx business refusals (for example 409 insufficient balance), which is an explicit API
 * policy: once stored, a retry with the same key gets the refusal back even if the balance grew since.
 * A 5xx is never storable: the request failed and the client may retry.
 *
 * <p>Immutable and thread-safe.
 */
public final class StorableStatuses {
    public static final StorableStatuses DEFAULT = new StorableStatuses(false, Collections.emptySet());

    private final boolean redirects;
    private final Set<Integer> refusals;

    private StorableStatuses(boolean redirects, Set<Integer> refusals) {
        this.redirects = redirects;
        this.refusals = Collections.unmodifiableSet(new TreeSet<>(refusals));
    }

    /**
     * Parses {@code 2xx}, optionally followed by {@code 3xx} and 4xx codes: {@code "2xx, 3xx, 409"}.
     *
     * @throws ConfigurationException if {@code 2xx} is missing, or an entry is not a 4xx code
     */
    public static StorableStatuses parse(String text) {
        Set<Integer> refusals = new TreeSet<>();
        boolean successes = false;
        boolean redirects = false;
        for (String entry : text.split(",")) {
            String item = entry.trim();
            if (item.equalsIgnoreCase("2xx")) {
                successes = true;
            } else if (item.equalsIgnoreCase("3xx")) {
                redirects = true;
            } else if (item.matches("4[0-9][0-9]")) {
                refusals.add(Integer.parseInt(item));
            } else {
                throw new ConfigurationException("storable-statuses takes '2xx', optionally '3xx', and 4xx codes"
                        + " such as '2xx, 409'; '" + item + "' is not allowed (a 5xx is never stored)");
            }
        }
        if (!successes) {
            throw new ConfigurationException("storable-statuses must include '2xx', was '" + text + "'");
        }
        return new StorableStatuses(redirects, refusals);
    }

    public boolean isStorable(int status) {
        return (status >= 200 && status < 300)
                || (redirects && status >= 300 && status < 400)
                || refusals.contains(status);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(redirects ? "2xx, 3xx" : "2xx");
        new TreeSet<>(refusals).forEach(code -> text.append(", ").append(code));
        return text.toString();
    }
}
