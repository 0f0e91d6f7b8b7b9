package dev.idempotency.metrics;

/**
 * The JMX view of one operation's outcomes on this node, since the application started, registered as
 * {@code dev.idempotency:type=Operation,application=<context path>,name="<operation>"}.
 */
public interface OperationCountersMBean {
    String getOperation();

    long getExecuted();

    long getReplayed();

    long getMismatches();

    long getInProgress();

    long getRolledBack();

    long getFailed();

    long getKeylessPassed();

    long getKeylessRefused();

    long getDrainPassed();

    long getRejected();

    /** How many keyed requests found their key taken or held, and so waited for a concurrent duplicate. */
    long getDuplicateWaits();

    /** The total time those requests spent in the claim, in milliseconds. */
    long getDuplicateWaitMillis();
}
