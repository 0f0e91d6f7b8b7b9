package dev.idempotency.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.TransactionConflictException;
import dev.idempotency.dialect.SqlDialect;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads and writes {@code request_result} rows in the caller's transaction. It does I/O only: the
 * decisions (replay, reject, store or not) belong to the caller. It knows nothing of HTTP.
 *
 * <p>Not thread-safe: create one per transaction, with that transaction's entity manager.
 */
public final class RequestResultStore {
    /** A vanished winner is rare (purge, or a competitor rolled back twice); three tries is plenty. */
    static final int MAX_CLAIM_ATTEMPTS = 3;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, List<String>>> HEADERS = new TypeReference<>() {};

    /** The standard JPA hint, in milliseconds; providers turn it into a JDBC query timeout. */
    private static final String QUERY_TIMEOUT_HINT = "jakarta.persistence.query.timeout";

    private final EntityManager entityManager;
    private final SqlDialect dialect;

    public RequestResultStore(EntityManager entityManager, SqlDialect dialect) {
        this.entityManager = entityManager;
        this.dialect = dialect;
    }

    /**
     * Claims {@code id} for the current transaction, or returns the committed record that holds it. Waits
     * at most {@code maxWait} while another transaction holds an uncommitted claim on the same identity.
     *
     * @throws RequestInProgressException if the holder is still running after {@code maxWait}, or the key
     *     stayed taken but unreadable for {@value #MAX_CLAIM_ATTEMPTS} attempts; the transaction must roll back
     * @throws TransactionConflictException if the database aborted the transaction to keep its isolation
     *     level; the caller may retry in a new transaction
     */
    public ClaimOutcome claim(RequestResultId id, String canonicalRequest, Duration retention, Duration maxWait) {
        for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
            if (insertClaim(id, canonicalRequest, retention, maxWait) == 1) {
                return new ClaimOutcome.Claimed();
            }
            // Under Read Committed, ON CONFLICT can skip because of a row that is not in this statement's
            // snapshot, so the winner is looked up by a separate statement with a fresh snapshot (PostgreSQL
            // docs, "INSERT ... ON CONFLICT"; the chapter's Read Committed rule).
            RequestResult existing = entityManager.find(RequestResult.class, id);
            if (existing != null) {
                return new ClaimOutcome.Existing(existing);
            }
        }
        throw new RequestInProgressException(
                "the key " + id + " was taken but its record vanished " + MAX_CLAIM_ATTEMPTS + " times in a row");
    }

    private int insertClaim(RequestResultId id, String canonicalRequest, Duration retention, Duration maxWait) {
        try {
            return entityManager
                    .createNativeQuery(dialect.claimStatement())
                    .setParameter(1, id.scope())
                    .setParameter(2, id.operation())
                    .setParameter(3, id.requestKey())
                    .setParameter(4, canonicalRequest)
                    .setParameter(5, retention.toString())
                    // A JDBC query timeout bounds only this statement's wait on the unique index; unlike
                    // SET LOCAL lock_timeout it costs no extra round trip and leaves the application's own
                    // lock waits alone.
                    .setHint(QUERY_TIMEOUT_HINT, (int) Math.min(maxWait.toMillis(), Integer.MAX_VALUE))
                    .executeUpdate();
        } catch (PersistenceException e) {
            String sqlState = SqlDialect.sqlState(e).orElse("");
            if (dialect.isWaitTimeout(sqlState)) {
                throw new RequestInProgressException(
                        "the key " + id + " is held by a request still running after " + maxWait);
            }
            if (dialect.isTransactionConflict(sqlState)) {
                throw new TransactionConflictException("claiming " + id + " hit SQLSTATE " + sqlState, e);
            }
            throw e;
        }
    }

    /** The committed record under {@code id}, if any; claims nothing. */
    public Optional<RequestResult> find(RequestResultId id) {
        return Optional.ofNullable(entityManager.find(RequestResult.class, id));
    }

    /** Writes the final response into the record this transaction claimed. */
    public void complete(RequestResultId id, StoredResponse response) {
        int updated = entityManager
                .createNativeQuery(dialect.completeStatement())
                .setParameter(1, response.status())
                .setParameter(2, writeHeaders(response.headers()))
                .setParameter(3, response.body())
                .setParameter(4, id.scope())
                .setParameter(5, id.operation())
                .setParameter(6, id.requestKey())
                .executeUpdate();
        if (updated != 1) {
            throw new IllegalStateException(
                    "the claimed record " + id + " was not found to complete; updated " + updated + " rows");
        }
    }

    /**
     * Deletes at most {@code maxRows} records whose retention has passed, in the current transaction.
     *
     * @return how many were deleted; fewer than {@code maxRows} means none are left for now
     */
    public int purgeExpired(int maxRows) {
        return entityManager
                .createNativeQuery(dialect.purgeExpiredRequestsStatement())
                .setParameter(1, maxRows)
                .executeUpdate();
    }

    /** The response a committed record holds, ready to replay. */
    public static StoredResponse storedResponse(RequestResult record) {
        if (record.responseStatus() == null) {
            // Only a transaction that also wrote the response ever commits, so this means someone wrote
            // to request_result outside the filter.
            throw new IllegalStateException("record " + record.id() + " has no response");
        }
        try {
            Map<String, List<String>> headers = JSON.readValue(record.responseHeaders(), HEADERS);
            byte[] body = record.responseBody() == null ? new byte[0] : record.responseBody();
            return new StoredResponse(record.responseStatus(), headers, body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("record " + record.id() + " has unreadable headers", e);
        }
    }

    private static String writeHeaders(Map<String, List<String>> headers) {
        try {
            return JSON.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("header names and values are strings and always serialize", e);
        }
    }
}
