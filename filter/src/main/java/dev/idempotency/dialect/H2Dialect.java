package dev.idempotency.dialect;

import java.sql.SQLException;
import java.util.OptionalInt;

/**
 * H2 2.x, for development setups and quickstarts. A concurrent duplicate waits for the row lock of the
 * first, but only for H2's own lock timeout (two seconds by default); past it, or on a concurrent-update
 * error, the insert fails ({@link Failure#KEY_BUSY}) and the store tries again until its own wait bound, so
 * the duplicate behaves as if it had waited that long. A failed statement does not end an H2 transaction, so
 * the retry runs in the same one.
 */
final class H2Dialect extends SqlDialect {
    /** The key columns are {@code VARCHAR(1000)} (h2.sql). */
    private static final int KEY_COLUMN_LENGTH = 1000;

    H2Dialect(Engine engine) {
        super(engine);
    }

    @Override
    public OptionalInt maxIdentityLength() {
        return OptionalInt.of(KEY_COLUMN_LENGTH);
    }

    /**
     * Inserts unless a committed row exists; a row committed between the check and the insert raises a
     * duplicate key error, which the store reads as "taken".
     */
    @Override
    public SqlStatement claimStatement() {
        return SqlStatement.of("INSERT INTO request_result (scope, operation, request_key, request, created_at,"
                + " expires_at) SELECT s, o, k, r, CURRENT_TIMESTAMP, DATEADD(SECOND, t, CURRENT_TIMESTAMP)"
                + " FROM (VALUES (CAST(:scope AS VARCHAR), CAST(:operation AS VARCHAR), CAST(:requestKey AS VARCHAR),"
                + " CAST(:request AS CHARACTER LARGE OBJECT), CAST(:retentionSeconds AS BIGINT)))"
                + " AS claim(s, o, k, r, t) WHERE NOT EXISTS (SELECT 1 FROM request_result"
                + " WHERE scope = claim.s AND operation = claim.o AND request_key = claim.k)");
    }

    @Override
    public SqlStatement purgeExpiredRequestsStatement() {
        return SqlStatement.of(
                "DELETE FROM request_result WHERE expires_at < CURRENT_TIMESTAMP FETCH FIRST :batchSize ROWS ONLY");
    }

    @Override
    public SqlStatement claimMessageStatement() {
        return SqlStatement.of("INSERT INTO processed_message (subscriber, message_id, payload, local_object,"
                + " processed_at) SELECT s, m, p, l, CURRENT_TIMESTAMP FROM (VALUES (CAST(:subscriber AS VARCHAR),"
                + " CAST(:messageId AS VARCHAR), CAST(:payload AS CHARACTER LARGE OBJECT),"
                + " CAST(:localObject AS VARCHAR))) AS claim(s, m, p, l) WHERE NOT EXISTS"
                + " (SELECT 1 FROM processed_message WHERE subscriber = claim.s AND message_id = claim.m)");
    }

    @Override
    public SqlStatement purgeProcessedMessagesStatement() {
        return SqlStatement.of("DELETE FROM processed_message WHERE processed_at"
                + " < DATEADD(SECOND, -:retentionSeconds, CURRENT_TIMESTAMP) FETCH FIRST :batchSize ROWS ONLY");
    }

    @Override
    public SqlStatement upsertRolloutStatement() {
        return SqlStatement.of("MERGE INTO idempotency_rollout (operation, mode, changed_by, changed_at)"
                + " KEY (operation) VALUES (:operation, :mode, :changedBy, CURRENT_TIMESTAMP)");
    }

    @Override
    public SqlStatement addToKeylessDayStatement() {
        return SqlStatement.of("MERGE INTO idempotency_keyless_day t USING (VALUES (CAST(:operation AS VARCHAR),"
                + " CAST(:principal AS VARCHAR), CAST(:userAgent AS VARCHAR), CAST(:day AS VARCHAR),"
                + " CAST(:requests AS BIGINT), CAST(:duplicates AS BIGINT), CAST(:firstSeen AS BIGINT),"
                + " CAST(:lastSeen AS BIGINT))) AS s(o, p, u, d, r, n, f, l)"
                + " ON t.operation = s.o AND t.principal = s.p AND t.user_agent = s.u AND t.utc_day = s.d"
                + " WHEN MATCHED THEN UPDATE SET requests = t.requests + s.r, duplicates = t.duplicates + s.n,"
                + " first_seen = LEAST(t.first_seen, s.f), last_seen = GREATEST(t.last_seen, s.l)"
                + " WHEN NOT MATCHED THEN INSERT (operation, principal, user_agent, utc_day, requests, duplicates,"
                + " first_seen, last_seen) VALUES (s.o, s.p, s.u, s.d, s.r, s.n, s.f, s.l)");
    }

    @Override
    public SqlStatement addToCounterStatement() {
        return SqlStatement.of("MERGE INTO idempotency_counter t USING (VALUES (CAST(:operation AS VARCHAR),"
                + " CAST(:counter AS VARCHAR), CAST(:principal AS VARCHAR), CAST(:userAgent AS VARCHAR),"
                + " CAST(:amount AS BIGINT))) AS s(o, c, p, u, n)"
                + " ON t.operation = s.o AND t.counter = s.c AND t.principal = s.p AND t.user_agent = s.u"
                + " WHEN MATCHED THEN UPDATE SET count = t.count + s.n, updated_at = CURRENT_TIMESTAMP"
                + " WHEN NOT MATCHED THEN INSERT (operation, counter, principal, user_agent, count, updated_at)"
                + " VALUES (s.o, s.c, s.p, s.u, s.n, CURRENT_TIMESTAMP)");
    }

    /**
     * 57014, the JDBC query timeout, ends the wait. 50200, H2's own lock timeout (two seconds by default, shorter
     * than most {@code lock-timeout}s), and 90131, a concurrent update, mean another transaction still holds the
     * key's row: the store tries again until its own bound. 23505, a duplicate that committed between the check
     * and the insert, is the standard class 23.
     */
    @Override
    public Failure classify(SQLException failure) {
        int code = failure.getErrorCode();
        if (code == 57014) {
            return Failure.WAIT_TIMEOUT;
        }
        if (code == 90131 || code == 50200) {
            return Failure.KEY_BUSY;
        }
        return super.classify(failure);
    }
}
