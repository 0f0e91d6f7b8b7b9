package dev.idempotency.config;

import dev.idempotency.ConfigurationException;
import java.util.Locale;
import java.util.Set;
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
 */
public record Operation(String method, PathTemplate path, String contract) {
    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS", "TRACE");
    private static final Pattern METHOD = Pattern.compile("[A-Z]+");
    private static final Pattern CONTRACT = Pattern.compile("[A-Za-z0-9._-]+:[A-Za-z0-9._-]+");

    /**
     * Parses one line of the {@code operations} setting: {@code POST /api/accounts/{id}/debits = debit:v1}.
     *
     * @throws ConfigurationException if the line is not {@code METHOD /path = name:version}, or the method is
     *     a safe one
     */
    public static Operation parse(String line) {
        String[] sides = line.split("=", -1);
        String[] route = sides[0].trim().split("\\s+");
        if (sides.length != 2 || route.length != 2) {
            throw new ConfigurationException("operations: '" + line.trim()
                    + "' is malformed; write one operation per line as 'POST /api/accounts/{id}/debits = debit:v1'");
        }
        String method = route[0].toUpperCase(Locale.ROOT);
        String contract = sides[1].trim();
        if (!METHOD.matcher(method).matches() || SAFE_METHODS.contains(method)) {
            throw new ConfigurationException("operations: method must be an unsafe HTTP method such as POST, PUT,"
                    + " PATCH or DELETE, was '" + route[0] + "'");
        }
        if (!CONTRACT.matcher(contract).matches()) {
            throw new ConfigurationException(
                    "operations: contract must be 'name:version' such as 'debit:v1', was '" + contract + "'");
        }
        return new Operation(method, PathTemplate.parse(route[1]), contract);
    }

    /** Whether this operation covers a request with this method and context-relative path. */
    public boolean matches(String requestMethod, String requestPath) {
        return method.equals(requestMethod) && path.matches(requestPath);
    }

    @Override
    public String toString() {
        return method + " " + path + " = " + contract;
    }
}
