package dev.idempotency.runtime;

import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.rollout.KeylessHistory;
import dev.idempotency.store.KeylessDayStore;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.tx.Transaction;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Deletes expired {@code request_result} rows, on the container's scheduler: in bounded batches, each in a
 * short transaction of its own, so a purge never holds many locks or a long transaction; on a partitioned table,
 * one partition after another. Only rows whose {@code expires_at} has passed are touched: a record is deleted
 * only after every retry it promised is over. It also trims the keyless history to {@code keyless-history-days}.
 *
 * <p>Thread-safe; the scheduler runs one purge at a time.
 */
final class ExpiredRecordPurge implements Runnable {
    private static final Logger LOG = Logger.getLogger(ExpiredRecordPurge.class.getName());

    private final Transaction transaction;
    private final RequestResultStore store;
    private final int batchSize;
    private final KeylessDayStore keylessDays;
    private final int historyDays;

    /**
     * @param store the filter's one store of records, on the datasource {@code transaction} spans
     * @param keylessDays the keyless history on the same datasource, trimmed to {@code historyDays}
     */
    ExpiredRecordPurge(
            Transaction transaction,
            RequestResultStore store,
            KeylessDayStore keylessDays,
            int batchSize,
            int historyDays) {
        this.transaction = transaction;
        this.store = store;
        this.batchSize = batchSize;
        this.keylessDays = keylessDays;
        this.historyDays = historyDays;
    }

    @Override
    public void run() {
        long total = 0;
        try {
            // A batch that comes back short has emptied its statement's table or partition, not the others.
            for (SqlStatement purge : transaction.inTransaction(store::expiredRecordPurges)) {
                int deleted;
                do {
                    deleted = purgeOneBatch(purge);
                    total += deleted;
                } while (deleted == batchSize);
            }
        } catch (RuntimeException e) {
            // The next run tries again; nothing is lost by a skipped purge, records only live a little longer.
            LOG.log(Level.WARNING, "purging expired idempotency records failed after " + total + " rows", e);
            return;
        }
        if (total > 0) {
            long purged = total;
            LOG.info(() -> "purged " + purged + " expired idempotency record(s)");
        }
        trimKeylessHistory();
    }

    private void trimKeylessHistory() {
        LocalDate firstKept = KeylessHistory.firstDayKept(LocalDate.now(ZoneOffset.UTC), historyDays);
        try {
            transaction.inTransaction(() -> keylessDays.deleteBefore(firstKept));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "trimming idempotency_keyless_day before " + firstKept + " failed", e);
        }
    }

    private int purgeOneBatch(SqlStatement purge) {
        return transaction.inTransaction(() -> store.purgeExpired(purge, batchSize));
    }
}
