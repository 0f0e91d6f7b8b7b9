package dev.idempotency.sample.faults;

import dev.idempotency.consumer.ProcessedMessages;
import dev.idempotency.sample.Account;
import dev.idempotency.sample.messaging.CreditEvent;
import jakarta.annotation.Resource;
import jakarta.ejb.ActivationConfigProperty;
import jakarta.ejb.MessageDriven;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * A projection that fails once per message, after it has recorded the message and credited the account:
 * the transaction must roll both back, and the broker's redelivery must apply the credit exactly once.
 */
@MessageDriven(
        activationConfig = {
            @ActivationConfigProperty(
                    propertyName = "destinationLookup",
                    propertyValue = FailingCreditProjection.QUEUE),
            @ActivationConfigProperty(propertyName = "destinationType", propertyValue = "jakarta.jms.Queue")
        })
public class FailingCreditProjection implements MessageListener {
    public static final String QUEUE = "java:/jms/queue/failing-credits";
    public static final String SUBSCRIBER = "failing-projection";

    private static final Set<String> FAILED_ONCE = ConcurrentHashMap.newKeySet();

    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    /** The sample unit's JTA datasource: the record shares the effect's transaction and connection. */
    @Resource(lookup = "java:jboss/datasources/SampleDS")
    DataSource dataSource;

    @Override
    public void onMessage(Message message) {
        CreditEvent event = CreditEvent.of(message);
        String account = "account:" + event.accountId();
        if (ProcessedMessages.in(dataSource).markProcessed(SUBSCRIBER, event.messageId(), account)) {
            entityManager
                    .find(Account.class, event.accountId(), LockModeType.PESSIMISTIC_WRITE)
                    .credit(event.amount());
            entityManager.flush();
            if (FAILED_ONCE.add(event.messageId())) {
                throw new IllegalStateException("failing on purpose after the credit reached the database");
            }
        }
    }
}
