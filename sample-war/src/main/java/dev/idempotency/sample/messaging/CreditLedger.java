package dev.idempotency.sample.messaging;

import dev.idempotency.consumer.ProcessedMessages;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import javax.sql.DataSource;

/**
 * A second, independent projection of the same credit events: one ledger line per event. It has its own
 * {@code processed_message} rows, so it applies every event once even where {@code balance-projection}
 * already has.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(propertyName = "destinationLookup", propertyValue = CreditQueues.CREDIT_LEDGER),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
public class CreditLedger implements MessageListener {
    static final String SUBSCRIBER = "credit-ledger";

    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    /** The sample unit's JTA datasource: the record shares the effect's transaction and connection. */
    @Resource(lookup = "java:jboss/datasources/SampleDS")
    DataSource dataSource;

    @Override
    public void onMessage(Message message) {
        CreditEvent event = CreditEvent.of(message);
        String ledger = "ledger:" + event.accountId();
        if (ProcessedMessages.in(dataSource).markProcessed(SUBSCRIBER, event.messageId(), ledger)) {
            entityManager
                    .createNativeQuery("INSERT INTO credit_ledger (message_id, account_id, amount) VALUES (?, ?, ?)")
                    .setParameter(1, event.messageId())
                    .setParameter(2, event.accountId())
                    .setParameter(3, event.amount())
                    .executeUpdate();
        }
    }
}
