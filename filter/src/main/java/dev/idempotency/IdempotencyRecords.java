package dev.idempotency;

import dev.idempotency.core.HeaderScope;
import dev.idempotency.dialect.Engine;
import dev.idempotency.store.RecordErasure;
import dev.idempotency.store.RequestResultStore;
import java.util.Optional;
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
 * // a caller named by the scope-header, by the header's value; with the filter's scope-header-key if it has one
 * IdempotencyRecords.in(dataSource).withScopeHeaderKey(key).eraseHeaderScope(apiKey);
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class IdempotencyRecords {
    private final RequestResultStore store;
    private final RecordErasure erasure;

    private IdempotencyRecords(RequestResultStore store, HeaderScope headerScope) {
        this.store = store;
        this.erasure = new RecordErasure(store, headerScope::erasable);
    }

    /**
     * The records on this datasource; its engine is detected once, here. Header scopes are taken as a filter
     * without {@code scope-header-key} makes them; see {@link #withScopeHeaderKey}.
     */
    public static IdempotencyRecords in(DataSource dataSource) {
        return new IdempotencyRecords(
                new RequestResultStore(dataSource, Engine.detect(dataSource)), new HeaderScope(Optional.empty()));
    }

    /**
     * The same records, with header scopes made as a filter with this {@code scope-header-key} makes them.
     *
     * @param scopeHeaderKey the key's bytes (the setting's Base64, decoded)
     * @throws IllegalArgumentException if the key is shorter than the setting allows (32 bytes)
     */
    public IdempotencyRecords withScopeHeaderKey(byte[] scopeHeaderKey) {
        return new IdempotencyRecords(store, HeaderScope.keyedWith(scopeHeaderKey));
    }

    /**
     * Deletes every record of {@code scope}, as stored: a principal's name, or a header scope ({@link
     * #headerScope}); for a caller named by the {@code scope-header}, {@link #eraseHeaderScope} takes the value.
     *
     * @return how many records were deleted
     * @throws StoreException if the database refused, or a request of that caller held a record for more
     *     than ten seconds
     */
    public int eraseScope(String scope) {
        return erasure.eraseScope(scope);
    }

    /**
     * Deletes every record of the caller whose {@code scope-header} carries {@code headerValue}: those under its
     * digest, and those an earlier release stored under the value as written ({@code header:<value>}).
     *
     * @return how many records were deleted
     * @throws StoreException as {@link #eraseScope} does
     */
    public int eraseHeaderScope(String headerValue) {
        return erasure.eraseHeaderScope(headerValue);
    }

    /**
     * The scope a filter without {@code scope-header-key} gives the caller whose {@code scope-header} carries
     * {@code headerValue}: {@code header:sha256:<base64url>}, never the value itself, and never a principal's name.
     */
    public static String headerScope(String headerValue) {
        return new HeaderScope(Optional.empty()).of(headerValue);
    }

    /**
     * The scope a filter with this {@code scope-header-key} gives that caller: {@code header:hmac-sha256:<base64url>}.
     *
     * @throws IllegalArgumentException if the key is shorter than the setting allows (32 bytes)
     */
    public static String headerScope(String headerValue, byte[] scopeHeaderKey) {
        return HeaderScope.keyedWith(scopeHeaderKey).of(headerValue);
    }
}
