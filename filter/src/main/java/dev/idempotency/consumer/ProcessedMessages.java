package dev.idempotency.consumer;

import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.canonical.RequestCanonicalizer;
import dev.idempotency.dialect.SqlDialect;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.logging.Logger;

/**
 * The idempotent consumer: records "subscriber S processed message M" in the <em>current</em> transaction,
 * in the {@code processed_message} table, and tells the caller whether this is the first time. Apply the
 * message's effect only then; the record and the effect commit together, and the broker's acknowledgement
 * comes after the commit.
 *
 * <pre>{@code
 * @MessageDriven(...)
 * public class BalanceProjection implements MessageListener {
 *     @PersistenceContext EntityManager entityManager;
 *
 *     public void onMessage(Message message) {
 *         String id = message.getStringProperty("messageId");
 *         if (ProcessedMessages.in(entityManager).markProcessed("balance-projection", id, "account:1")) {
 *             // apply the effect, in the same transaction
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>The subscriber is part of the identity: independent projections each apply a message once. The
 * message id names an event outside this database, so there is no foreign key to any broker table.
 *
 * <p>Not thread-safe: create one per transaction, like the entity manager it uses.
 */
public final class ProcessedMessages {
    private static final Logger LOG = Logger.getLogger(ProcessedMessages.class.getName());
    private static final int MAX_CLAIM_ATTEMPTS = 3;

    private final EntityManager entityManager;
    private final SqlDialect dialect;

    private ProcessedMessages(EntityManager entityManager, SqlDialect dialect) {
        this.entityManager = entityManager;
        this.dialect = dialect;
    }

    /** For an entity manager of a PostgreSQL persistence unit, joined to the caller's JTA transaction. */
    public static ProcessedMessages in(EntityManager entityManager) {
        return new ProcessedMessages(entityManager, SqlDialect.forDatabase("postgresql"));
    }

    /**
     * Records that {@code subscriber} processed {@code messageId}, touching {@code localObject} (such as
     * {@code account:1}). A concurrent delivery of the same id waits for this transaction to end.
     *
     * @return true the first time, when the caller must apply the effect; false for a redelivery
     * @throws IllegalStateException if no transaction is active: the record must share the effect's
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
     */
    public int purgeProcessedBefore(Duration retention, int maxRows) {
        return entityManager
                .createNativeQuery(dialect.purgeProcessedMessagesStatement())
                .setParameter(1, retention.toString())
                .setParameter(2, maxRows)
                .executeUpdate();
    }

    private boolean claim(String subscriber, String messageId, String localObject, String payload) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (messageId == null || messageId.isBlank()) {
            // Some databases store '' as NULL; an empty id would also match every other empty id.
            throw new IllegalArgumentException("a message id must not be empty");
        }
        if (!entityManager.isJoinedToTransaction()) {
            throw new IllegalStateException("markProcessed must run in the JTA transaction that applies the effect");
        }
        for (int attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt++) {
            int inserted = entityManager
                    .createNativeQuery(dialect.claimMessageStatement())
                    .setParameter(1, subscriber)
                    .setParameter(2, messageId)
                    .setParameter(3, payload)
                    .setParameter(4, localObject)
                    .executeUpdate();
            if (inserted == 1) {
                return true;
            }
            // A separate statement sees a concurrent winner's row that the INSERT's snapshot could not
            // (the chapter's Read Committed rule).
            List<?> stored = entityManager
                    .createNativeQuery(dialect.selectMessagePayloadStatement())
                    .setParameter(1, subscriber)
                    .setParameter(2, messageId)
                    .getResultList();
            if (!stored.isEmpty()) {
                requireSamePayload(subscriber, messageId, (String) stored.get(0), payload);
                return false;
            }
        }
        throw new RequestInProgressException("message " + messageId + " of " + subscriber
                + " was recorded but vanished " + MAX_CLAIM_ATTEMPTS + " times in a row");
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
