package dev.idempotency.sample.messaging;

import dev.idempotency.consumer.ProcessedMessages;
import jakarta.annotation.Resource;
import jakarta.ejb.Schedule;
import jakarta.ejb.Singleton;
import jakarta.ejb.TransactionManagement;
import jakarta.ejb.TransactionManagementType;
import jakarta.transaction.UserTransaction;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Deletes processed-message records older than the retention, hourly, in bounded batches of their own
 * short transactions. The retention must outlast the broker's longest redelivery window: after deletion a
 * redelivered id counts as new.
 */
@Singleton
@TransactionManagement(TransactionManagementType.BEAN)
public class ProcessedMessagePurge {
    static final Duration RETENTION = Duration.ofDays(7);
    static final int BATCH = 1_000;

    /** The sample unit's JTA datasource: the record shares the effect's transaction and connection. */
    @Resource(lookup = "java:jboss/datasources/SampleDS")
    DataSource dataSource;

    @Resource
    UserTransaction transaction;

    @Schedule(minute = "17", hour = "*", persistent = false)
    public void purge() throws Exception {
        int deleted;
        do {
            transaction.begin();
            try {
                deleted = ProcessedMessages.in(dataSource).purgeProcessedBefore(RETENTION, BATCH);
                transaction.commit();
            } catch (Exception e) {
                transaction.rollback();
                throw e;
            }
        } while (deleted == BATCH);
    }
}
