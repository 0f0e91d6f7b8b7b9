package dev.idempotency.consumer;

import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.canonical.RequestCanonicalizer;
import dev.idempotency.dialect.SqlDialect;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.logging.Logger;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * The idempotent consumer: records "subscriber S processed message M" in the <em>current</em> transaction,
 * in the {@code processed_message} table, and tells the caller whether this is the first time. Apply the
 * message's effect only then; the record and the effect commit together, and the broker's acknowledgement
 * comes after the commit.
 *
 * <pre>{@code
 * @MessageDriven(...)
 * public class BalanceProjection implements MessageListener {
 *     @Resource(lookup = "java:jboss/datasources/AppDS") DataSource dataSource; // the unit's JTA datasource
 *
 *     public void onMessage(Message message) {
 *         String id = message.getStringProperty("messageId");
 *         if (ProcessedMessages.in(dataSource).markProcessed("balance-projection", id, "account:1")) {
 *             // apply the effect, in the same transaction
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>It works with JDBC on the JTA datasource the effect is written with: inside the transaction the
 * container hands every user of that datasource the same connection, so the record joins the effect's
 * transaction whether the effect is written with JPA or JDBC. The engine is detected from the datasource once.
 *
 * <p>The subscriber is part of the identity: independent projections each apply a message once. The
 * message id names an event outside this database, so there is no foreign key to any broker table.
 *
 * <p>Thread-safe: each call borrows the current transaction's connection.
 */
public final class ProcessedMessages {
    private static final Logger LOG = Logger.getLogger(ProcessedMessages.class.getName());
    private static final int MAX_CLAIM_ATTEMPTS = 3;
    private static final String TRANSACTION_REGISTRY = "java:comp/TransactionSynchronizationRegistry";

    /** One detection per datasource; weak, so a redeployed application's datasource can go. */
    private static final Map<DataSource, SqlDialect> DIALECTS = Collections.synchronizedMap(new WeakHashMap<>());

    private final DataSource dataSource;
    private final SqlDialect dialect;

    private ProcessedMessages(DataSource dataSource, SqlDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
    }

    /**
     * For the JTA datasource the caller's effect is written with.
     *
     * @throws dev.idempotency.ConfigurationException if its engine is not supported
     */
    public static ProcessedMessages in(DataSource dataSource) {
        return new ProcessedMessages(dataSource, DIALECTS.computeIfAbsent(dataSource, SqlDialect::detect));
    }

    /**
     * Records that {@code subscriber} processed {@code messageId}, touching {@code localObject} (such as
     * {@code account:1}). A concurrent delivery of the same id waits for this transaction to end.
     *
     * @return true the first time, when the caller must apply the effect; false for a redelivery
     * @throws IllegalStateException if no transaction is active: the record must share the effect's
     * @throws StoreException if the database failed
     */
    public boolean markProcessed(String subscriber, String messageId, String localObject) {
        return claim(subscriber, messageId, localObject, null);
    }

    /**
     * Like {@link #markProcessed(String, String, String)}, with payload identity: the canonical payload
     * (canonical JSON for JSON, else the content type and a SHA-256 of the bytes) is stored, and a redelivery
     * must carry the same payload.
     *
     * @throws PayloadMismatchException if the id was processed with a different payload; it is also logged
     */
    public boolean markProcessed(
            String subscriber, String messageId, String localObject, String contentType, byte[] payload) {
        String canonical = RequestCanonicalizer.canonicalBody(contentType, payload);
        return claim(subscriber, messageId, localObject, canonical);
    }

    /**
     * Deletes at most {@code maxRows} records processed longer ago than {@code retention}, in the current
     * transaction. Run it in short transactions of its own, on a schedule, with a retention longer than the
     * broker's longest redelivery window: after deletion, a redelivered id is new again.
     *
     * @return how many records were deleted; fewer than {@code maxRows} means none are left to purge
     * @throws StoreException if the database failed
     */
    public int purgeProcessedBefore(Duration retention, int maxRows) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement purge = connection.prepareStatement(dialect.purgeProcessedMessagesStatement())) {
            purge.setLong(1, retention.toSeconds());
            purge.setInt(2, maxRows);
            return purge.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("purging processed messages failed: " + e.getMessage(), e);
        }
    }

    private boolean claim(String subscriber, String messageId, String localObject, String payload) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (messageId == null || messageId.isBlank()) {
            // Some databases store '' as NULL; an empty id would also match every other empty id.
            throw new IllegalArgumentException("a message id must not be empty");
        }
        requireActiveTransaction();
        try (Connection connection = dataSource.getConnection()) {
            for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
                if (insert(connection, subscriber, messageId, payload, localObject) == 1) {
                    return true;
                }
                // A separate statement sees a concurrent winner's row that the INSERT's snapshot could not
                // (the chapter's Read Committed rule).
                Optional<Optional<String>> stored = storedPayload(connection, subscriber, messageId);
                if (stored.isPresent()) {
                    requireSamePayload(subscriber, messageId, stored.get().orElse(null), payload);
                    return false;
                }
            }
        } catch (SQLException e) {
            throw new StoreException(
                    "recording message " + messageId + " of " + subscriber + " failed: " + e.getMessage(), e);
        }
        throw new RequestInProgressException("message " + messageId + " of " + subscriber
                + " was recorded but vanished " + MAX_CLAIM_ATTEMPTS + " times in a row");
    }

    private int insert(Connection connection, String subscriber, String messageId, String payload, String localObject)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(dialect.claimMessageStatement())) {
            insert.setString(1, subscriber);
            insert.setString(2, messageId);
            insert.setString(3, payload);
            insert.setString(4, localObject);
            return insert.executeUpdate();
        }
    }

    /** Empty if there is no row; otherwise the stored payload, which may itself be absent. */
    private Optional<Optional<String>> storedPayload(Connection connection, String subscriber, String messageId)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(dialect.selectMessagePayloadStatement())) {
            select.setString(1, subscriber);
            select.setString(2, messageId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(Optional.ofNullable(row.getString(1))) : Optional.empty();
            }
        }
    }

    private static void requireActiveTransaction() {
        try {
            TransactionSynchronizationRegistry registry = InitialContext.doLookup(TRANSACTION_REGISTRY);
            if (registry.getTransactionStatus() == Status.STATUS_ACTIVE) {
                return;
            }
        } catch (NamingException e) {
            throw new IllegalStateException("no " + TRANSACTION_REGISTRY + "; markProcessed needs a JTA container", e);
        }
        throw new IllegalStateException("markProcessed must run in the JTA transaction that applies the effect");
    }

    private static void requireSamePayload(String subscriber, String messageId, String stored, String payload) {
        if (stored != null && payload != null && !stored.equals(payload)) {
            String message = subscriber + " already processed message " + messageId + " with a different payload;"
                    + " refusing the redelivery (stored " + stored + ", received " + payload + ")";
            LOG.warning(message);
            throw new PayloadMismatchException(message);
        }
    }
}
