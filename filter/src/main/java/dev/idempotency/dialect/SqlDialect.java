package dev.idempotency.dialect;

import dev.idempotency.ConfigurationException;

/**
 * The SQL the store runs on its hot path. Portable statements live here; each engine overrides only
 * what differs. Every statement uses positional {@code ?} parameters, the only kind JPA native queries
 * support portably.
 *
 * <p>Stateless and thread-safe.
 */
public abstract class SqlDialect {

    /**
     * The dialect for a {@code database} setting value.
     *
     * @throws ConfigurationException naming the engine if it is not supported
     */
    public static SqlDialect forDatabase(String database) {
        return switch (database) {
            case "postgresql" -> new PostgreSqlDialect();
            default -> throw new ConfigurationException("database '" + database + "' is not supported");
        };
    }

    /**
     * Inserts a provisional record unless one with the same identity exists, waiting for a concurrent
     * inserter to finish. Affects one row (claimed) or none (taken), and never fails on a duplicate,
     * because a failed statement would doom the application's transaction too.
     *
     * <p>Parameters: scope, operation, request key, canonical request, retention as an ISO-8601 duration.
     */
    public abstract String claimStatement();

    /**
     * Writes the final response into the claimed record. Parameters: status, headers JSON, body, then
     * scope, operation, request key.
     */
    public String completeStatement() {
        return "UPDATE request_result SET response_status = ?, response_headers = ?, response_body = ?"
                + " WHERE scope = ? AND operation = ? AND request_key = ?";
    }
}
