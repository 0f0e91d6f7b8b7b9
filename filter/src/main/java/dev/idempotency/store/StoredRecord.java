package dev.idempotency.store;

import java.time.Instant;

/**
 * A committed record as the request path needs it: the canonical request it was made for, the response
 * to replay, and until when it is kept. Plain data, read by {@link RequestResultStore}.
 *
 * @param id the record's identity
 * @param request the canonical request text this record was created for
 * @param response the stored final response
 * @param createdAt when the record was claimed, by the database's clock
 * @param expiresAt when the record is purged
 */
public record StoredRecord(
        RequestResultId id, String request, StoredResponse response, Instant createdAt, Instant expiresAt) {}
