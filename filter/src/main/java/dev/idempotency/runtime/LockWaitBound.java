package dev.idempotency.runtime;

import dev.idempotency.dialect.SqlDialect;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Compares, at start-up, the filter's {@code lock-timeout} with the bound an engine puts on every lock wait
 * itself where the claim's query timeout cannot shorten it ({@link SqlDialect#lockWaitBound}, Derby's {@code
 * derby.locks.waitTimeout}): a duplicate there waits the engine's bound, so a longer one is said once, in a
 * WARNING, instead of being discovered as requests that hang past {@code lock-timeout}.
 */
final class LockWaitBound {
    private LockWaitBound() {}

    /**
     * @return the WARNING to log if the engine's own bound exceeds {@code lockTimeout}; empty if it does not, if the
     *     engine has none, or if it could not be read (the claims still work; only the bound is unknown)
     */
    static Optional<String> warning(SqlDialect dialect, DataSource dataSource, Duration lockTimeout) {
        Optional<Duration> bound;
        try (Connection connection = dataSource.getConnection()) {
            bound = dialect.lockWaitBound(connection);
        } catch (SQLException unreadable) {
            return Optional.empty();
        }
        return bound.filter(engineBound -> engineBound.compareTo(lockTimeout) > 0)
                .map(engineBound -> "on " + dialect.name() + " a duplicate request waits for the first up to the"
                        + " database's own lock wait timeout, " + engineBound.getSeconds() + " s, and not up to"
                        + " lock-timeout (" + lockTimeout + "), which the engine's query timeout cannot shorten; set"
                        + " the database's lock wait timeout to at most " + lockTimeout.getSeconds() + " s (see"
                        + " docs/engines.md#apache-derby)");
    }
}
