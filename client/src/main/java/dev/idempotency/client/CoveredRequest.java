package dev.idempotency.client;

import dev.idempotency.IdempotentExecution;
import java.util.function.UnaryOperator;

/**
 * The covered request the calling thread runs in, if the filter jar is present and the thread runs one: its key
 * derivation, as {@code IdempotentExecution.deriveKey}, so that a retried request calls with the same keys as its
 * first attempt (the rule of {@code DerivedKeyClientFilter}, not a copy of it).
 *
 * <p>The filter is an optional dependency: this class names its types only in {@link Bridge}, which is loaded
 * once the filter's classes are known to be there, so a caller without the filter never links against them.
 *
 * <p>Stateless and thread-safe.
 */
final class CoveredRequest {
    private static final boolean FILTER_PRESENT = filterPresent();

    private CoveredRequest() {}

    /** The current execution's key derivation (label to key), or null outside a covered request. */
    static UnaryOperator<String> keyDerivation() {
        return FILTER_PRESENT ? Bridge.keyDerivation() : null;
    }

    private static boolean filterPresent() {
        try {
            Class.forName("dev.idempotency.IdempotentExecution", false, CoveredRequest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }

    private static final class Bridge {
        static UnaryOperator<String> keyDerivation() {
            IdempotentExecution execution = IdempotentExecution.current().orElse(null);
            return execution == null ? null : execution::deriveKey;
        }
    }
}
