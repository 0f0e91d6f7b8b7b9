package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import dev.idempotency.canonical.IgnoredParts;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One covered operation: an HTTP method and a path template mapped to an operation contract such as
 * {@code debit:v1}. The contract is part of every record's identity, so bump its version whenever the
 * meaning of a request changes (new defaults, new units).
 *
 * <p>Immutable and thread-safe.
 *
 * @param method the upper-case HTTP method, never GET, HEAD, OPTIONS or TRACE
 * @param path the path template, relative to the context path
 * @param contract the operation contract, {@code name:version}
 * @param retention how long this operation's records are kept, or {@code null} for the {@code retention}
 *     setting
 * @param encrypted whether its stored requests and response bodies are sealed with {@code encryption-keys}
 * @param replayRoles the roles of which a caller must hold one, at the time of the retry, to get a stored
 *     response replayed; empty for no such check
 * @param conditions request parameters the operation requires, name to value, such as {@code action=buy} for
 *     one action of a front controller; empty for every request to the path
 * @param concurrency what a duplicate of a request still in flight gets: a wait for its outcome, or 409 at once
 * @param ignored the parts of the canonical request left out of the comparison ({@link IgnoredParts}), such as
 *     {@code /body/json/requestedAt}; empty for none
 * @param afterExpiry what a retry gets after the record's retention: a new execution, or a refusal
 */
public record Operation(
        String method,
        PathTemplate path,
        String contract,
        Duration retention,
        boolean encrypted,
        Set<String> replayRoles,
        SortedMap<String, String> conditions,
        Concurrency concurrency,
        List<String> ignored,
        AfterExpiry afterExpiry) {
    /** What a duplicate of a request still in flight gets ({@code concurrent=}). */
    public enum Concurrency {
        /** It waits for the first, up to {@code lock-timeout}, then replays its outcome: the default. */
        WAIT,
        /** It gets {@code 409 request-in-progress} at once, as the IETF draft asks. */
        REJECT
    }

    /** What a retry gets once the record's retention has passed ({@code after-expiry=}). */
    public enum AfterExpiry {
        /** It runs again, as a new request: the chapter's rule, and the default. */
        RUN,
        /** It is refused for {@code late-retry-window} more, and nothing runs. */
        REFUSE
    }

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    private static final String RETENTION = "retention=";
    private static final String ENCRYPTED = "encrypted";
    private static final String REPLAY_ROLES = "replay-roles=";
    private static final String CONCURRENT = "concurrent=";
    private static final String IGNORE = "ignore=";
    private static final String AFTER_EXPIRY = "after-expiry=";
    private static final Pattern ROLES = Pattern.compile("[^|\\s]+(\\|[^|\\s]+)*");
    private static final Pattern CONTRACT = Pattern.compile("[A-Za-z0-9._-]+:[A-Za-z0-9._-]+");
    private static final Pattern SEPARATOR = Pattern.compile("\\s=");
    private static final Pattern CONDITION = Pattern.compile("[^=&]+=[^=&]+");

    public Operation {
        conditions = Collections.unmodifiableSortedMap(new TreeMap<>(conditions));
        ignored = List.copyOf(ignored);
    }

    /**
     * Parses one line of the {@code operations} setting: {@code POST /api/accounts/{id}/debits = debit:v1},
     * optionally followed by the operation's own options, in any order: its retention ({@code retention=P7D}),
     * {@code encrypted}, {@code replay-roles}, {@code concurrent=reject}, {@code ignore=/body/json/sentAt} and
     * {@code after-expiry=refuse}. The path may end in parameter conditions written like a query
     * string, {@code POST /app?action=buy = buy:v1}, so that several operations can share one path.
     *
     * @throws ConfigurationException if the line is not {@code METHOD /path[?name=value&...] = name:version
     *     [options]}, an option is unknown or given twice, or the method is a safe one
     */
    public static Operation parse(String line) {
        // The first '=' after whitespace separates route and target, as conditions hold '=' themselves.
        Matcher separator = SEPARATOR.matcher(line);
        int equals = separator.find() ? separator.end() - 1 : line.indexOf('=');
        String[] route = (equals < 0 ? line : line.substring(0, equals)).trim().split("\\s+");
        String[] target =
                equals < 0 ? new String[0] : line.substring(equals + 1).trim().split("\\s+");
        if (route.length != 2 || target.length == 0 || target[0].isEmpty()) {
            throw malformed(line);
        }
        String retentionText = null;
        boolean encrypted = false;
        String rolesText = null;
        String concurrencyText = null;
        String ignoreText = null;
        String afterExpiryText = null;
        for (int i = 1; i < target.length; i++) {
            if (target[i].startsWith(RETENTION) && retentionText == null) {
                retentionText = target[i].substring(RETENTION.length());
            } else if (target[i].equals(ENCRYPTED) && !encrypted) {
                encrypted = true;
            } else if (target[i].startsWith(REPLAY_ROLES)
                    && rolesText == null
                    && ROLES.matcher(target[i].substring(REPLAY_ROLES.length())).matches()) {
                rolesText = target[i].substring(REPLAY_ROLES.length());
            } else if (target[i].startsWith(CONCURRENT) && concurrencyText == null) {
                concurrencyText = target[i].substring(CONCURRENT.length());
            } else if (target[i].startsWith(IGNORE) && ignoreText == null) {
                ignoreText = target[i].substring(IGNORE.length());
            } else if (target[i].startsWith(AFTER_EXPIRY) && afterExpiryText == null) {
                afterExpiryText = target[i].substring(AFTER_EXPIRY.length());
            } else {
                throw malformed(line);
            }
        }
        String method = route[0].toUpperCase(Locale.ROOT);
        String contract = target[0];
        if (!METHOD.matcher(method).matches() || SAFE_METHODS.contains(method)) {
            throw new ConfigurationException("operations: method must be an unsafe HTTP method such as POST, PUT,"
                    + " PATCH or DELETE, was '" + route[0] + "'");
        }
        if (!CONTRACT.matcher(contract).matches()) {
            throw new ConfigurationException(
                    "operations: contract must be 'name:version' such as 'debit:v1', was '" + contract + "'");
        }
        Duration retention = retentionText == null ? null : retention(contract, retentionText);
        Set<String> replayRoles = rolesText == null ? Set.of() : new LinkedHashSet<>(List.of(rolesText.split("\\|")));
        int query = route[1].indexOf('?');
        String template = query < 0 ? route[1] : route[1].substring(0, query);
        SortedMap<String, String> conditions =
                query < 0 ? new TreeMap<>() : conditions(route[1], route[1].substring(query + 1));
        return new Operation(
                method,
                PathTemplate.parse(template),
                contract,
                retention,
                encrypted,
                Set.copyOf(replayRoles),
                conditions,
                concurrencyText == null
                        ? Concurrency.WAIT
                        : choice(Concurrency.class, contract, "concurrent", concurrencyText, "wait or reject"),
                ignoreText == null ? List.of() : IgnoredParts.parse(contract, ignoreText),
                afterExpiryText == null
                        ? AfterExpiry.RUN
                        : choice(AfterExpiry.class, contract, "after-expiry", afterExpiryText, "run or refuse"));
    }

    private static <T extends Enum<T>> T choice(
            Class<T> choices, String contract, String option, String value, String inWords) {
        try {
            return Enum.valueOf(choices, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(
                    "operations: " + option + " of " + contract + " must be " + inWords + ", was '" + value + "'");
        }
    }

    /** {@code action=buy&kind=stock}: each name once, each value non-empty, decoded like a query string. */
    private static SortedMap<String, String> conditions(String route, String query) {
        SortedMap<String, String> conditions = new TreeMap<>();
        for (String pair : query.split("&", -1)) {
            if (!CONDITION.matcher(pair).matches()) {
                throw new ConfigurationException("operations: the conditions of '" + route + "' are malformed at '"
                        + pair + "'; write them like a query string, '?action=buy' or '?action=buy&kind=stock',"
                        + " each with a non-empty value");
            }
            String[] nameAndValue = pair.split("=", 2);
            String name = URLDecoder.decode(nameAndValue[0], StandardCharsets.UTF_8);
            if (conditions.put(name, URLDecoder.decode(nameAndValue[1], StandardCharsets.UTF_8)) != null) {
                throw new ConfigurationException("operations: '" + route + "' names the parameter '" + name
                        + "' twice; a request parameter has one value to compare");
            }
        }
        return conditions;
    }

    private static ConfigurationException malformed(String line) {
        return new ConfigurationException("operations: '" + line.trim() + "' is malformed; write one operation"
                + " per line as 'POST /api/accounts/{id}/debits = debit:v1', optionally followed by"
                + " 'retention=P7D', 'encrypted', 'replay-roles=role1|role2', 'concurrent=reject',"
                + " 'ignore=/body/json/member|/query/name' and 'after-expiry=refuse', each at most once");
    }

    private static Duration retention(String contract, String value) {
        try {
            return Duration.parse(value);
        } catch (DateTimeParseException e) {
            throw new ConfigurationException("operations: the retention of " + contract
                    + " must be an ISO-8601 duration such as P7D, was '" + value + "'");
        }
    }

    /**
     * Whether this operation covers a request with this method and context-relative path, regardless of its
     * {@link #conditions()}.
     */
    public boolean matches(String requestMethod, String requestPath) {
        return method.equals(requestMethod) && path.matches(requestPath);
    }

    /**
     * Whether the request's parameters meet every condition.
     *
     * @param parameter the value the application would read with {@code getParameter(name)}, or {@code null}
     */
    public boolean meetsConditions(UnaryOperator<String> parameter) {
        return conditions.entrySet().stream()
                .allMatch(condition -> condition.getValue().equals(parameter.apply(condition.getKey())));
    }

    /** The path template followed by its conditions, as written in the settings. */
    public String route() {
        if (conditions.isEmpty()) {
            return path.toString();
        }
        StringJoiner query = new StringJoiner("&", path + "?", "");
        conditions.forEach((name, value) -> query.add(name + "=" + value));
        return query.toString();
    }

    @Override
    public String toString() {
        return method + " " + route() + " = " + contract + (retention == null ? "" : " retention=" + retention)
                + (encrypted ? " " + ENCRYPTED : "")
                + (replayRoles.isEmpty() ? "" : " " + REPLAY_ROLES + String.join("|", new TreeSet<>(replayRoles)))
                + (concurrency == Concurrency.WAIT ? "" : " " + CONCURRENT + "reject")
                + (ignored.isEmpty() ? "" : " " + IGNORE + String.join("|", ignored))
                + (afterExpiry == AfterExpiry.RUN ? "" : " " + AFTER_EXPIRY + "refuse");
    }
}
