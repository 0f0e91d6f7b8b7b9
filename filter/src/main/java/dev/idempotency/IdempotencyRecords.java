package dev.idempotency;

import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.RequestResultStore;
import javax.sql.DataSource;

/**
 * Erasure of stored records, for a caller who leaves or asks for their data to be deleted: every record of
 * one scope goes, whatever its operation or expiry. Use it on the datasource that holds {@code
 * request_result} (the application's JTA datasource); inside a transaction the deletion commits with it,
 * otherwise on its own. The admin servlet offers the same as {@code DELETE ?scope=...}.
 *
 * <p><b>The consequence for that caller</b>: a retry of one of their earlier requests finds no record and
 * runs again, so erase only when their retries no longer matter (an account that is closed, or after their
 * clients' retry window).
 *
 * <pre>{@code
 * IdempotencyRecords.in(dataSource).eraseScope(principal.getName());
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class IdempotencyRecords {
    private final RequestResultStore store;

    private IdempotencyRecords(RequestResultStore store) {
        this.store = store;
    }

    /** The records on this datasource; its engine is detected once, here. */
    public static IdempotencyRecords in(DataSource dataSource) {
        return new IdempotencyRecords(new RequestResultStore(dataSource, SqlDialect.detect(dataSource)));
    }

    /**
     * Deletes every record of {@code scope}: a principal's name, or {@link #headerScope} of a caller that the
     * {@code scope-header} names.
     *
     * @return how many records were deleted
     * @throws StoreException if the database refused, or a request of that caller held a record for more
     *     than ten seconds
     */
    public int eraseScope(String scope) {
        if (scope == null || scope.isBlank()) {
            throw new IllegalArgumentException("name the scope to erase: a principal's name");
        }
        return store.deleteScope(scope);
    }

    /**
     * The scope of a caller who is named by the {@code scope-header} rather than a principal: prefixed, so it
     * never equals a principal's name by accident.
     */
    public static String headerScope(String headerValue) {
        return "header:" + headerValue.trim();
    }
}
