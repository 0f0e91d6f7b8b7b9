package dev.idempotency.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.dialect.SqlStatement.Values;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Reads and writes {@code request_result} rows in the caller's JTA transaction, with plain JDBC on the
 * application's own JTA datasource. Inside one transaction every connection taken from that datasource is
 * the application's connection (the container shares it), so the record and the application's work commit
 * together. It does I/O only: the decisions (replay, reject, store or not) belong to the caller, and it
 * knows nothing of HTTP. It returns values, never a managed entity.
 *
 * <p>Thread-safe: it holds only the datasource and the dialect; each call borrows a connection handle.
 */
public final class RequestResultStore {
    /**
     * Where {@link StoredResponse#writerCharset()} is kept: beside the headers, under a name that no HTTP header
     * can have (':' is not a token character), so records from before it existed read as written in bytes.
     */
    private static final String WRITER_CHARSET = ":writer-charset";

    /** A purge statement that cannot finish in this long gives up; nothing is lost, the next run tries again. */
    static final int PURGE_STATEMENT_TIMEOUT_SECONDS = 10;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, List<String>>> HEADERS = new TypeReference<>() {};

    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final ClaimLoop claimLoop;
    // The request path's statements, made once: their text is parsed for parameters only here.
    private final SqlStatement claim;
    private final SqlStatement claimWithoutWaiting;
    // The same two as queries that also return a record committed before them, where the engine has them.
    private final Optional<SqlStatement> claimReturningCommitted;
    private final Optional<SqlStatement> claimWithoutWaitingReturningCommitted;
    private final SqlStatement select;
    private final SqlStatement complete;

    public RequestResultStore(DataSource dataSource, SqlDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.claimLoop = new ClaimLoop(dialect);
        this.claim = dialect.claimStatement();
        this.claimWithoutWaiting = dialect.claimWithoutWaitingStatement();
        this.claimReturningCommitted = dialect.claimReturningCommittedStatement(claim);
        this.claimWithoutWaitingReturningCommitted = dialect.claimReturningCommittedStatement(claimWithoutWaiting);
        this.select = dialect.selectRequestResultStatement();
        this.complete = dialect.completeStatement();
    }

    /**
     * Claims {@code id} for the current transaction, or returns the committed record that holds it. Waits
     * at most {@code maxWait} while another transaction holds an uncommitted claim on the same identity; zero
     * refuses such a duplicate without waiting, where the engine can ({@link ClaimLoop}). Where the engine's
     * claim can also return a record committed before it began, a replay is that one statement.
     *
     * @throws RequestInProgressException if the holder is still running after {@code maxWait}, or the key
     *     stayed taken but unreadable for {@value ClaimLoop#MAX_ATTEMPTS} attempts; the transaction must roll back
     * @throws TransactionConflictException if the database aborted the transaction to keep its isolation
     *     level; the caller may retry in a new transaction
     * @throws StoreException if the database failed otherwise
     */
    public ClaimOutcome claim(RequestResultId id, String canonicalRequest, Duration retention, Duration maxWait) {
        requireFitsKeyColumns(id);
        Values values =
                identity(id).text("request", canonicalRequest).number("retentionSeconds", retention.getSeconds());
        try (Connection connection = dataSource.getConnection()) {
            Optional<StoredRecord> winner = claim(connection, id, values, maxWait);
            return winner.<ClaimOutcome>map(ClaimOutcome.Existing::new).orElseGet(ClaimOutcome.Claimed::new);
        } catch (SQLException e) {
            throw failure("claiming " + id, e);
        }
    }

    private Optional<StoredRecord> claim(Connection connection, RequestResultId id, Values values, Duration maxWait)
            throws SQLException {
        ClaimLoop.Winner<StoredRecord> winner = found -> find(found, id);
        String what = "the key " + id;
        Optional<SqlStatement> query =
                maxWait.isZero() ? claimWithoutWaitingReturningCommitted : claimReturningCommitted;
        if (query.isPresent()) {
            return claimLoop.claim(connection, query.get(), values, row -> seen(id, row), winner, maxWait, what);
        }
        return claimLoop.claim(
                connection, maxWait.isZero() ? claimWithoutWaiting : claim, values, winner, maxWait, what);
    }

    /**
     * Engines with bounded key columns would cut a longer identity, and SQL Server would take one with a trailing
     * space for the same without it: two identities could become one. An empty key would break the key check,
     * which an engine's {@code INSERT IGNORE} would hide as "taken".
     */
    private void requireFitsKeyColumns(RequestResultId id) {
        if (id.requestKey().isEmpty()) {
            throw new StoreException("an idempotency key must not be empty");
        }
        claimLoop.requireStorable("the identity " + id, id.scope(), id.operation(), id.requestKey());
    }

    /**
     * The committed record under {@code id}, if any; claims nothing.
     *
     * @throws StoreException if the database could not be read
     */
    public Optional<StoredRecord> find(RequestResultId id) {
        try (Connection connection = dataSource.getConnection()) {
            return find(connection, id);
        } catch (SQLException e) {
            throw failure("reading " + id, e);
        }
    }

    private Optional<StoredRecord> find(Connection connection, RequestResultId id) throws SQLException {
        try (PreparedStatement query = select.prepare(connection, identity(id))) {
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.of(record(id, row)) : Optional.empty();
            }
        }
    }

    /**
     * The record a claim that is a query saw committed before it began, in the columns of {@link
     * SqlDialect#selectRequestResultStatement()}; empty if they are null, since it saw none (a record's request is
     * never null).
     */
    private Optional<StoredRecord> seen(RequestResultId id, ResultSet row) throws SQLException {
        return row.getString(1) == null ? Optional.empty() : Optional.of(record(id, row));
    }

    /** The record in a row with the columns of {@link SqlDialect#selectRequestResultStatement()}. */
    private StoredRecord record(RequestResultId id, ResultSet row) throws SQLException {
        int status = row.getInt(2);
        if (row.wasNull()) {
            // Only a transaction that also wrote the response ever commits, so this means someone
            // wrote to request_result outside the filter.
            throw new IllegalStateException("record " + id + " has no response");
        }
        byte[] body = row.getBytes(4);
        Map<String, List<String>> headers = readHeaders(id, row.getString(3));
        List<String> writerCharset = headers.remove(WRITER_CHARSET);
        StoredResponse response = new StoredResponse(
                status,
                headers,
                body == null ? new byte[0] : body,
                writerCharset == null ? null : writerCharset.get(0));
        return new StoredRecord(
                id, row.getString(1), response, dialect.readInstant(row, 6), dialect.readInstant(row, 5));
    }

    /**
     * Writes the final response into the record this transaction claimed.
     *
     * @throws StoreException if the database refused the write
     */
    public void complete(RequestResultId id, StoredResponse response) {
        int updated;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = complete.prepare(
                        connection,
                        identity(id)
                                .number("status", response.status())
                                .text("headers", writeHeaders(response))
                                .bytes("body", response.body()))) {
            updated = update.executeUpdate();
        } catch (SQLException e) {
            throw failure("completing " + id, e);
        }
        if (updated != 1) {
            throw new IllegalStateException(
                    "the claimed record " + id + " was not found to complete; updated " + updated + " rows");
        }
    }

    /**
     * Deletes every record of one scope, committed or not yet expired, in the current transaction: erasure for
     * a caller who leaves or asks for it. Waits at most {@value #PURGE_STATEMENT_TIMEOUT_SECONDS} s for a
     * record that a request of that caller holds right now.
     *
     * @return how many records were deleted
     * @throws StoreException if the database refused the delete
     */
    public int deleteScope(String scope) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = dialect.deleteScopeStatement()
                        .prepare(connection, Values.of().text("scope", scope))) {
            delete.setQueryTimeout(PURGE_STATEMENT_TIMEOUT_SECONDS);
            return delete.executeUpdate();
        } catch (SQLException e) {
            // Not the scope itself: a header scope as written (an old record's) can be a credential.
            throw failure("erasing the records of a scope", e);
        }
    }

    /**
     * The statements that together purge expired records, to run one after another, each in batches of {@link
     * #purgeExpired} until one comes back short: one statement, or one per partition of a partitioned PostgreSQL
     * table. Read in the current transaction, from the table as it is now; a later purge reads it again.
     *
     * @throws StoreException if the database could not be read
     */
    public List<SqlStatement> expiredRecordPurges() {
        try (Connection connection = dataSource.getConnection()) {
            return dialect.purgeExpiredRequestsStatements(connection, PURGE_STATEMENT_TIMEOUT_SECONDS);
        } catch (SQLException e) {
            throw failure("reading which statements purge expired records", e);
        }
    }

    /**
     * Deletes at most {@code maxRows} records whose retention has passed with {@code purge}, one of {@link
     * #expiredRecordPurges()}, in the current transaction.
     *
     * @return how many were deleted; fewer than {@code maxRows} means none are left for now where {@code purge}
     *     reaches
     * @throws StoreException if the database refused the delete
     */
    public int purgeExpired(SqlStatement purge, int maxRows) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement =
                        purge.prepare(connection, Values.of().number("batchSize", maxRows))) {
            // An engine without SKIP LOCKED for DELETE would wait on a row a retry holds; the next run tries again.
            statement.setQueryTimeout(PURGE_STATEMENT_TIMEOUT_SECONDS);
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw failure("purging expired records with " + purge, e);
        }
    }

    /** The record's identity, the parameters every statement on one record names. */
    private static Values identity(RequestResultId id) {
        return Values.of()
                .text("scope", id.scope())
                .text("operation", id.operation())
                .text("requestKey", id.requestKey());
    }

    /**
     * Whether {@code failure} (or its cause) is this database aborting a transaction to protect its isolation
     * level, a serialization failure or a deadlock: a retry of the same request in a new transaction may succeed.
     */
    public boolean abortedToProtectIsolation(Throwable failure) {
        return dialect.classify(failure) == SqlDialect.Failure.TRANSACTION_CONFLICT;
    }

    private RuntimeException failure(String what, SQLException e) {
        if (dialect.classify(e) == SqlDialect.Failure.TRANSACTION_CONFLICT) {
            return new TransactionConflictException(what + " hit SQLSTATE " + e.getSQLState(), e);
        }
        return new StoreException(
                what + " failed: SQLSTATE " + e.getSQLState() + ", error " + e.getErrorCode() + ", " + e.getMessage(),
                e);
    }

    private static Map<String, List<String>> readHeaders(RequestResultId id, String json) {
        try {
            return JSON.readValue(json, HEADERS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("record " + id + " has unreadable headers", e);
        }
    }

    private static String writeHeaders(StoredResponse response) {
        Map<String, List<String>> headers = new LinkedHashMap<>(response.headers());
        if (response.writerCharset() != null) {
            headers.put(WRITER_CHARSET, Collections.singletonList(response.writerCharset()));
        }
        try {
            return JSON.writeValueAsString(headers);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("header names and values are strings and always serialize", e);
        }
    }
}
