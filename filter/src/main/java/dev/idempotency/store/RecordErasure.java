package dev.idempotency.store;

import java.util.List;
import java.util.function.Function;

/**
 * Erasure of stored records, the one implementation behind {@code IdempotencyRecords} and the admin servlet's
 * {@code DELETE ?scope=...}: every record of one scope, or of the caller a {@code scope-header} value names (under
 * every scope its records can have). It runs in whatever transaction the caller holds, or none; the callers choose.
 *
 * <p>Thread-safe.
 */
public final class RecordErasure {
    private final RequestResultStore records;
    private final Function<String, List<String>> headerScopes;

    /**
     * @param headerScopes every scope a caller's records can have, from its {@code scope-header} value (the header
     *     scope's {@code erasable})
     */
    public RecordErasure(RequestResultStore records, Function<String, List<String>> headerScopes) {
        this.records = records;
        this.headerScopes = headerScopes;
    }

    /**
     * Deletes every record of {@code scope}, as stored.
     *
     * @return how many records were deleted
     * @throws IllegalArgumentException if {@code scope} is null or blank
     * @throws dev.idempotency.StoreException if the database refused the delete
     */
    public int eraseScope(String scope) {
        if (scope == null || scope.trim().isEmpty()) {
            throw new IllegalArgumentException("name the scope to erase: a principal's name");
        }
        return records.deleteScope(scope);
    }

    /**
     * Deletes every record of the caller whose {@code scope-header} carries {@code headerValue}, under each scope
     * its records can have.
     *
     * @return how many records were deleted
     * @throws IllegalArgumentException if {@code headerValue} is null or blank
     * @throws dev.idempotency.StoreException if the database refused a delete
     */
    public int eraseHeaderScope(String headerValue) {
        if (headerValue == null || headerValue.trim().isEmpty()) {
            throw new IllegalArgumentException("name the caller to erase: the value of its scope-header");
        }
        return headerScopes.apply(headerValue).stream()
                .mapToInt(records::deleteScope)
                .sum();
    }
}
