package dev.idempotency.sample.messaging;

/** The queues a credit event goes to: one per independent projection. */
public final class CreditQueues {
    public static final String BALANCE_PROJECTION = "java:/jms/queue/balance-projection";
    public static final String CREDIT_LEDGER = "java:/jms/queue/credit-ledger";

    /** The business id of the event, chosen by its producer; not the broker's JMSMessageID. */
    public static final String MESSAGE_ID = "messageId";

    private CreditQueues() {}
}
