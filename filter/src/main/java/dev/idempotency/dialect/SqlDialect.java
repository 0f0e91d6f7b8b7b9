package dev.idempotency.dialect;

import dev.idempotency.ConfigurationException;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The SQL the store runs on its hot path, and how to read the database's error codes. Portable
 * statements live here; each engine overrides only what differs. Every statement uses positional {@code
 * ?} parameters, the only kind JPA native queries support portably.
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
     * Reads a committed record. Parameters: scope, operation, request key. Columns: request, status, headers
     * JSON, body, expires_at.
     */
    public String selectRequestResultStatement() {
        return "SELECT request, response_status, response_headers, response_body, expires_at FROM request_result"
                + " WHERE scope = ? AND operation = ? AND request_key = ?";
    }

    /**
     * Writes the final response into the claimed record. Parameters: status, headers JSON, body, then
     * scope, operation, request key.
     */
    public String completeStatement() {
        return "UPDATE request_result SET response_status = ?, response_headers = ?, response_body = ?"
                + " WHERE scope = ? AND operation = ? AND request_key = ?";
    }

    /**
     * Deletes a bounded batch of records whose {@code expires_at} has passed, skipping rows that another
     * transaction holds. Parameter: batch size.
     */
    public abstract String purgeExpiredRequestsStatement();

    /**
     * Records a processed message unless the subscriber already has it; affects one row or none. Parameters:
     * subscriber, message id, canonical payload (or null), local object.
     */
    public abstract String claimMessageStatement();

    /** The stored canonical payload of a processed message. Parameters: subscriber, message id. */
    public String selectMessagePayloadStatement() {
        return "SELECT payload FROM processed_message WHERE subscriber = ? AND message_id = ?";
    }

    /** Deletes a bounded batch of old processed messages. Parameters: retention (ISO-8601), batch size. */
    public abstract String purgeProcessedMessagesStatement();

    /** Every operation's rollout mode. Columns: operation, mode, changed_by, changed_at. */
    public String selectRolloutStatement() {
        return "SELECT operation, mode, changed_by, changed_at FROM idempotency_rollout";
    }

    /** Sets an operation's rollout mode, inserting its row if needed. Parameters: operation, mode, changed by. */
    public abstract String upsertRolloutStatement();

    /** Appends a rollout change to the audit history. Parameters: operation, mode, changed by. */
    public String insertRolloutHistoryStatement() {
        return "INSERT INTO idempotency_rollout_history (operation, mode, changed_by, changed_at)"
                + " VALUES (?, ?, ?, CURRENT_TIMESTAMP)";
    }

    /**
     * Whether the database aborted the transaction to protect its isolation level: SQLSTATE class 40
     * (serialization failure 40001, deadlock 40P01) in standard SQL. Retrying the whole transaction is safe.
     */
    public boolean isTransactionConflict(String sqlState) {
        return sqlState.startsWith("40");
    }

    /** Whether the statement was cancelled because it waited longer than its timeout. */
    public abstract boolean isWaitTimeout(String sqlState);

    /** The SQLSTATE of the first {@link SQLException} in the cause chain, if any. */
    public static Optional<String> sqlState(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null) {
                return Optional.of(sql.getSQLState());
            }
        }
        return Optional.empty();
    }
}
