package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import dev.idempotency.canonical.IgnoredParts;
import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

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
 * @param conditions request parameters the operation requires, name to value, such as {@code action=buy} for
 *     one action of a front controller; empty for every request to the path
 * @param options the value of every option in {@link OperationOptions#ALL}, its default where the entry does not
 *     give it; read them with {@link #option} or the accessors below
 */
public record Operation(
        String method,
        PathTemplate path,
        String contract,
        SortedMap<String, String> conditions,
        Map<OperationOption<?>, Object> options) {
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

    private static final Set<String> SAFE_METHODS =
            Collections.unmodifiableSet(new HashSet<>(Arrays.asList("GET", "HEAD", "OPTIONS", "TRACE")));
    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    private static final Pattern CONTRACT = Pattern.compile("[A-Za-z0-9._-]+:[A-Za-z0-9._-]+");
    private static final Pattern SEPARATOR = Pattern.compile("\\s=");
    private static final Pattern CONDITION = Pattern.compile("[^=&]+=[^=&]+");

    public Operation {
        conditions = Collections.unmodifiableSortedMap(new TreeMap<>(conditions));
        // An unmodifiable copy that keeps null values: the retention option defaults to none of its own.
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    /**
     * Parses one line of the {@code operations} setting: {@code POST /api/accounts/{id}/debits = debit:v1},
     * optionally followed by the operation's own options ({@link OperationOptions}), each at most once and in
     * any order, such as {@code retention=P7D}, {@code encrypted} or {@code concurrent=reject}. The path may end
     * in parameter conditions written like a query string, {@code POST /app?action=buy = buy:v1}, so that
     * several operations can share one path.
     *
     * @throws ConfigurationException if the line is not {@code METHOD /path[?name=value&...] = name:version
     *     [options]}, an option is unknown, given twice or has a bad value, or the method is a safe one
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
        Map<OperationOption<?>, String> given = new LinkedHashMap<>();
        for (int i = 1; i < target.length; i++) {
            String word = target[i];
            OperationOption<?> option = OperationOptions.ALL.stream()
                    .filter(declared -> declared.writtenIn(word))
                    .findFirst()
                    .orElseThrow(() -> malformed(line));
            if (given.put(option, word) != null) {
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
        Map<OperationOption<?>, Object> options = new LinkedHashMap<>();
        for (OperationOption<?> option : OperationOptions.ALL) {
            String word = given.get(option);
            options.put(option, word == null ? option.defaultValue() : option.parse(contract, word));
        }
        int query = route[1].indexOf('?');
        String template = query < 0 ? route[1] : route[1].substring(0, query);
        SortedMap<String, String> conditions =
                query < 0 ? new TreeMap<>() : conditions(route[1], route[1].substring(query + 1));
        return new Operation(method, PathTemplate.parse(template), contract, conditions, options);
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
            String name = urlDecode(nameAndValue[0]);
            if (conditions.put(name, urlDecode(nameAndValue[1])) != null) {
                throw new ConfigurationException("operations: '" + route + "' names the parameter '" + name
                        + "' twice; a request parameter has one value to compare");
            }
        }
        return conditions;
    }

    private static String urlDecode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8.name());
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("every Java platform has UTF-8", e);
        }
    }

    private static ConfigurationException malformed(String line) {
        List<String> examples = OperationOptions.ALL.stream()
                .map(option -> "'" + option.withExample() + "'")
                .collect(Collectors.toList());
        return new ConfigurationException("operations: '" + line.trim() + "' is malformed; write one operation"
                + " per line as 'POST /api/accounts/{id}/debits = debit:v1', optionally followed by "
                + String.join(", ", examples.subList(0, examples.size() - 1)) + " and "
                + examples.get(examples.size() - 1) + ", each at most once");
    }

    /** The value of one of this operation's options: the entry's, or the option's default. */
    @SuppressWarnings("unchecked") // the constructor's map holds each option's own type, as parse puts it there
    public <T> T option(OperationOption<T> option) {
        return (T) options.get(option);
    }

    /** How long this operation's records are kept, or {@code null} for the {@code retention} setting. */
    public Duration retention() {
        return option(OperationOptions.RETENTION);
    }

    /** Whether its stored requests and response bodies are sealed with {@code encryption-keys}. */
    public boolean encrypted() {
        return option(OperationOptions.ENCRYPTED);
    }

    /**
     * The roles of which a caller must hold one, at the time of the retry, to get a stored response replayed;
     * empty for no such check.
     */
    public Set<String> replayRoles() {
        return option(OperationOptions.REPLAY_ROLES);
    }

    /** What a duplicate of a request still in flight gets: a wait for its outcome, or 409 at once. */
    public Concurrency concurrency() {
        return option(OperationOptions.CONCURRENT);
    }

    /**
     * The parts of the canonical request left out of the comparison ({@link IgnoredParts}), such as {@code
     * /body/json/requestedAt}; empty for none.
     */
    public List<String> ignored() {
        return option(OperationOptions.IGNORE);
    }

    /** What a retry gets after the record's retention: a new execution, or a refusal. */
    public AfterExpiry afterExpiry() {
        return option(OperationOptions.AFTER_EXPIRY);
    }

    /** The form field its keys come in without a key header, or {@code null} for the {@code key-field} setting. */
    public String keyField() {
        return option(OperationOptions.KEY_FIELD);
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

    /** The entry as the settings would write it, with each option that differs from its default. */
    @Override
    public String toString() {
        StringBuilder entry = new StringBuilder(method + " " + route() + " = " + contract);
        OperationOptions.ALL.forEach(option -> entry.append(shown(option)));
        return entry.toString();
    }

    private <T> String shown(OperationOption<T> option) {
        return option.display(option(option));
    }
}
