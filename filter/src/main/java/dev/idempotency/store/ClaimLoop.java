package dev.idempotency.store;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The one claim every record uses, idempotency records and processed messages alike: insert the row unless it
 * exists, else read the winner with a separate statement, unless the claim was a query that returned it already
 * ({@link SqlDialect#claimReturningCommittedStatement}). It reads the engine's answers the same way for both:
 * a lock wait past its bound means the holder is still running; a duplicate key raised by an insert that could
 * not see a row committed meanwhile means taken; a key another transaction holds, answered at once by an engine
 * that does not wait (H2), is looked at again after a pause, within the bound.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClaimLoop {
    /** A vanished winner is rare (purge, or a competitor rolled back twice); three tries is plenty. */
    static final int MAX_ATTEMPTS = 3;

    /** How often a claim on an engine that does not wait (H2) looks again at a key another transaction holds. */
    static final long BUSY_KEY_PAUSE_MILLIS = 50;

    /** Reads the winner's row by a separate statement; empty if there is none (it rolled back, or was purged). */
    @FunctionalInterface
    public interface Winner<T> {
        Optional<T> find(Connection connection) throws SQLException;
    }

    /**
     * Reads the winner from the row of a claim that is a query ({@link SqlDialect#claimReturningCommittedStatement});
     * empty if the query saw no committed row.
     */
    @FunctionalInterface
    public interface SeenWinner<T> {
        Optional<T> read(ResultSet row) throws SQLException;
    }

    /** What one claim statement answered: claimed, or taken, with the winner if the statement returned it. */
    private record Answer<T>(boolean claimed, Optional<T> seen) {}

    /** Runs a prepared claim statement and reads its answer. */
    @FunctionalInterface
    private interface Execution<T> {
        Answer<T> run(PreparedStatement claim) throws SQLException;
    }

    private final SqlDialect dialect;

    public ClaimLoop(SqlDialect dialect) {
        this.dialect = dialect;
    }

    /**
     * Claims, waiting at most {@code maxWait} for a transaction that holds the same identity. A {@code maxWait}
     * of zero waits for nothing: with an insert that skips a key another transaction holds ({@link
     * SqlDialect#claimWithoutWaitingStatement()}), a skipped key whose winner cannot be read yet is in progress at
     * once; otherwise the engine's shortest wait, one second of query timeout, applies.
     *
     * @param insert the claim's insert, which affects one row (claimed) or none (taken), or fails with a
     *     duplicate key only on an engine where that leaves the transaction usable ({@link
     *     SqlDialect#claimStatement()})
     * @param values the insert's parameters
     * @param what names the identity in exceptions, such as {@code the key [alice, debit:v1, k1]}
     * @return empty if this transaction claimed it; the winner's row if it was taken
     * @throws RequestInProgressException if the holder is still running after {@code maxWait}, or the identity
     *     stayed taken but unreadable for {@value #MAX_ATTEMPTS} attempts; the transaction must roll back
     * @throws SQLException for any other failure, never hidden
     */
    public <T> Optional<T> claim(
            Connection connection,
            SqlStatement insert,
            SqlStatement.Values values,
            Winner<T> winner,
            Duration maxWait,
            String what)
            throws SQLException {
        Execution<T> execution = statement -> new Answer<>(statement.executeUpdate() == 1, Optional.empty());
        return claim(connection, insert, values, execution, winner, maxWait, what);
    }

    /**
     * Claims as {@link #claim(Connection, SqlStatement, SqlStatement.Values, Winner, Duration, String)} does, with
     * a query that also returns the winner when it was committed before the query began, so that the usual
     * replay needs no separate read.
     *
     * @param query the claim as a query ({@link SqlDialect#claimReturningCommittedStatement}): one row, whose
     *     column {@code claimed} is 1 (claimed) or 0 (taken), and whose other columns {@code seen} reads
     */
    public <T> Optional<T> claim(
            Connection connection,
            SqlStatement query,
            SqlStatement.Values values,
            SeenWinner<T> seen,
            Winner<T> winner,
            Duration maxWait,
            String what)
            throws SQLException {
        Execution<T> execution = statement -> {
            try (ResultSet row = statement.executeQuery()) {
                if (!row.next()) {
                    throw new IllegalStateException("the claim answered no row: " + query);
                }
                boolean claimed = row.getInt("claimed") == 1;
                return new Answer<>(claimed, claimed ? Optional.empty() : seen.read(row));
            }
        };
        return claim(connection, query, values, execution, winner, maxWait, what);
    }

    private <T> Optional<T> claim(
            Connection connection,
            SqlStatement statement,
            SqlStatement.Values values,
            Execution<T> execution,
            Winner<T> winner,
            Duration maxWait,
            String what)
            throws SQLException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; ) {
            Optional<Answer<T>> answer = run(connection, statement, values, execution, maxWait, deadline, what);
            if (!answer.isPresent()) {
                continue; // the key is busy on an engine that does not wait; tried again after a pause
            }
            if (answer.get().claimed()) {
                return Optional.empty();
            }
            if (answer.get().seen().isPresent()) {
                return answer.get().seen();
            }
            // Taken: the winner is read by a separate statement, because the claim's snapshot may not hold its
            // row (PostgreSQL's Read Committed rule, "INSERT ... ON CONFLICT"; MariaDB reads it with a locking
            // read for the same reason under Repeatable Read).
            Optional<T> found = winner.find(connection);
            if (found.isPresent()) {
                return found;
            }
            if (maxWait.isZero()) {
                throw new RequestInProgressException(what + " is held by a transaction still running");
            }
            attempt++;
        }
        throw new RequestInProgressException(
                what + " was taken but its row vanished " + MAX_ATTEMPTS + " times in a row");
    }

    /**
     * Refuses an identity that the engine's key columns would cut, or would take for another (SQL Server ignores
     * trailing spaces in {@code =}), before any statement: two identities must never share one record.
     *
     * @param what names the identity in the message, such as {@code the identity (alice, debit:v1, k1)}
     * @throws StoreException naming the identity, the part and the engine
     */
    public void requireStorable(String what, String... parts) {
        OptionalInt max = dialect.maxIdentityLength();
        for (String part : parts) {
            if (max.isPresent() && part.length() > max.getAsInt()) {
                throw new StoreException(what + " has a part longer than the " + max.getAsInt() + " characters the "
                        + dialect.name() + " key columns hold");
            }
            Optional<String> refused = dialect.refusedIdentityPart(part);
            if (refused.isPresent()) {
                throw new StoreException(what + " has a part '" + part + "' that " + refused.get());
            }
        }
    }

    /**
     * @return the claim's answer, or empty when the engine answered at once that another transaction holds the
     *     key and the caller should try again; it has then already paused
     */
    private <T> Optional<Answer<T>> run(
            Connection connection,
            SqlStatement statement,
            SqlStatement.Values values,
            Execution<T> execution,
            Duration maxWait,
            long deadline,
            String what)
            throws SQLException {
        int waitSeconds = (int) Math.min(Math.max(1, maxWait.getSeconds()), Integer.MAX_VALUE);
        try (PreparedStatement claim = dialect.prepareClaim(connection, statement, values, waitSeconds)) {
            return Optional.of(execution.run(claim));
        } catch (SQLException e) {
            switch (dialect.classify(e)) {
                case WAIT_TIMEOUT -> throw inProgress(what, maxWait);
                case DUPLICATE_KEY -> {
                    // Committed between the engine's check and its insert: taken, like a skipped insert.
                    return Optional.of(new Answer<>(false, Optional.empty()));
                }
                case KEY_BUSY -> {
                    pauseBeforeRetry(what, maxWait, deadline);
                    return Optional.empty();
                }
                default -> throw e;
            }
        }
    }

    /** Waits a little for the holder of the key to finish, as engines that block on the index do by themselves. */
    private static void pauseBeforeRetry(String what, Duration maxWait, long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw inProgress(what, maxWait);
        }
        try {
            Thread.sleep(Math.max(1, Math.min(BUSY_KEY_PAUSE_MILLIS, left / 1_000_000)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw inProgress(what, maxWait);
        }
    }

    private static RequestInProgressException inProgress(String what, Duration maxWait) {
        return new RequestInProgressException(what + " is held by a transaction still running after " + maxWait);
    }
}
