package dev.idempotency.consumer;

import dev.idempotency.PayloadMismatchException;
import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.canonical.RequestCanonicalizer;
import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.ProcessedMessageStore;
import jakarta.transaction.Status;
import jakarta.transaction.TransactionSynchronizationRegistry;
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
    /**
     * How long a concurrent delivery of the same message waits for the first one's transaction; past it, its own
     * transaction rolls back and the broker delivers it again later.
     */
    static final Duration REDELIVERY_WAIT = Duration.ofSeconds(30);

    private static final String TRANSACTION_REGISTRY = "java:comp/TransactionSynchronizationRegistry";

    /** One detection per datasource; weak, so a redeployed application's datasource can go. */
    private static final Map<DataSource, SqlDialect> DIALECTS = Collections.synchronizedMap(new WeakHashMap<>());

    private final ProcessedMessageStore store;

    private ProcessedMessages(DataSource dataSource, SqlDialect dialect) {
        this.store = new ProcessedMessageStore(dataSource, dialect);
    }

    /**
     * For the JTA datasource the caller's effect is written with.
     *
     * @throws dev.idempotency.ConfigurationException if its engine is not supported
     */
    public static ProcessedMessages in(DataSource dataSource) {
        return new ProcessedMessages(dataSource, DIALECTS.computeIfAbsent(dataSource, Engine::detect));
    }

    /**
     * Records that {@code subscriber} processed {@code messageId}, touching {@code localObject} (such as
     * {@code account:1}). A concurrent delivery of the same id waits for this transaction to end.
     *
     * @return true the first time, when the caller must apply the effect; false for a redelivery
     * @throws IllegalStateException if no transaction is active: the record must share the effect's
     * @throws RequestInProgressException if a concurrent delivery of the same message still holds it after 30
     *     seconds; let the transaction roll back, and the broker delivers the message again
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
        return store.purgeProcessedBefore(retention, maxRows);
    }

    private boolean claim(String subscriber, String messageId, String localObject, String payload) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (messageId == null || messageId.trim().isEmpty()) {
            // Some databases store '' as NULL; an empty id would also match every other empty id.
            throw new IllegalArgumentException("a message id must not be empty");
        }
        requireActiveTransaction();
        Optional<Optional<String>> stored = store.claim(subscriber, messageId, payload, localObject, REDELIVERY_WAIT);
        if (!stored.isPresent()) {
            return true;
        }
        requireSamePayload(subscriber, messageId, stored.get().orElse(null), payload);
        return false;
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
