package dev.idempotency.sample.messaging;

import dev.idempotency.consumer.ProcessedMessages;
import dev.idempotency.sample.Account;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import javax.sql.DataSource;

/**
 * The chapter's {@code balance-projection}: credits the account once per message id. The record in {@code
 * processed_message} and the credit commit in the MDB's transaction, and the broker's delivery is
 * acknowledged with that commit; a failure rolls both back and the broker redelivers. Payload identity is
 * on: a redelivery under the same id with a different amount is refused, not skipped.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(
                    propertyName = "destinationLookup",
                    propertyValue = CreditQueues.BALANCE_PROJECTION),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
public class BalanceProjection implements MessageListener {
    static final String SUBSCRIBER = "balance-projection";

    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    /** The sample unit's JTA datasource: the record shares the effect's transaction and connection. */
    @Resource(lookup = "java:jboss/datasources/SampleDS")
    DataSource dataSource;

    @Override
    public void onMessage(Message message) {
        CreditEvent event = CreditEvent.of(message);
        boolean first = ProcessedMessages.in(dataSource)
                .markProcessed(
                        SUBSCRIBER,
                        event.messageId(),
                        "account:" + event.accountId(),
                        "application/json",
                        event.payload());
        if (first) {
            entityManager
                    .find(Account.class, event.accountId(), LockModeType.PESSIMISTIC_WRITE)
                    .credit(event.amount());
        }
    }
}
