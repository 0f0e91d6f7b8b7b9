package dev.idempotency.core;

import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.store.RequestResultId;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * One request to execute at most once, as every entry point hands it to the {@link IdempotentExecutor}: its
 * identity, its canonical form, how long its record is kept, and whether its caller may be shown a stored
 * outcome.
 *
 * @param id the record's identity: scope, operation contract, key
 * @param request the canonical request, compared with the stored one on a retry
 * @param retention how long the record is kept
 * @param mayReplay whether the caller may be shown a stored outcome now (a role that can be revoked within the
 *     retention); asked only when a record exists
 */
public record Attempt(RequestResultId id, CanonicalRequest request, Duration retention, BooleanSupplier mayReplay) {}
