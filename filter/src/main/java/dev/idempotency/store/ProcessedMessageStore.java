package dev.idempotency.store;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement.Values;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The {@code processed_message} table: the consumer's records, claimed with the same {@link ClaimLoop} as the
 * idempotency records, in the caller's transaction. It knows nothing of messaging or JTA.
 *
 * <p>Thread-safe: each call borrows the current transaction's connection.
 */
public final class ProcessedMessageStore {
    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final ClaimLoop claimLoop;

    public ProcessedMessageStore(DataSource dataSource, SqlDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.claimLoop = new ClaimLoop(dialect);
    }

    /**
     * Records that {@code subscriber} processed {@code messageId}, unless it already has, waiting at most {@code
     * maxWait} for a concurrent delivery of the same message.
     *
     * @param payload the canonical payload, or {@code null}
     * @return empty if this transaction recorded it first; otherwise the payload stored with it, itself empty if
     *     none was stored
     * @throws RequestInProgressException if a concurrent delivery still holds it after {@code maxWait}
     * @throws StoreException if the subscriber or message id is longer than the key columns hold or would be
     *     taken for another (a trailing space on SQL Server), or the database failed
     */
    public Optional<Optional<String>> claim(
            String subscriber, String messageId, String payload, String localObject, Duration maxWait) {
        String what = "message " + messageId + " of " + subscriber;
        // Checked before the claim: MariaDB's INSERT IGNORE would cut a long id to a prefix another id shares.
        claimLoop.requireStorable(what, subscriber, messageId);
        try (Connection connection = dataSource.getConnection()) {
            return claimLoop.claim(
                    connection,
                    dialect.claimMessageStatement(),
                    message(subscriber, messageId).text("payload", payload).text("localObject", localObject),
                    found -> storedPayload(found, subscriber, messageId),
                    maxWait,
                    what);
        } catch (SQLException e) {
            throw new StoreException("recording " + what + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Deletes at most {@code maxRows} records processed longer ago than {@code retention}, in the current
     * transaction.
     *
     * @return how many were deleted
     * @throws StoreException if the database failed
     */
    public int purgeProcessedBefore(Duration retention, int maxRows) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement purge = dialect.purgeProcessedMessagesStatement()
                        .prepare(
                                connection,
                                Values.of()
                                        .number("retentionSeconds", retention.getSeconds())
                                        .number("batchSize", maxRows))) {
            return purge.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("purging processed messages failed: " + e.getMessage(), e);
        }
    }

    /** Empty if there is no row; otherwise the stored payload, which may itself be absent. */
    private Optional<Optional<String>> storedPayload(Connection connection, String subscriber, String messageId)
            throws SQLException {
        try (PreparedStatement select =
                        dialect.selectMessagePayloadStatement().prepare(connection, message(subscriber, messageId));
                ResultSet row = select.executeQuery()) {
            return row.next() ? Optional.of(Optional.ofNullable(row.getString(1))) : Optional.empty();
        }
    }

    private static Values message(String subscriber, String messageId) {
        return Values.of().text("subscriber", subscriber).text("messageId", messageId);
    }
}
