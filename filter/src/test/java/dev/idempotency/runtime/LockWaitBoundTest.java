package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.Engine;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.derby.jdbc.BasicEmbeddedDataSource40;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The start-up WARNING when Derby's own lock wait timeout, not lock-timeout, bounds a duplicate's wait. */
class LockWaitBoundTest {
    private static final Duration LOCK_TIMEOUT = Duration.ofSeconds(10);

    @Test
    void derbysDefaultSixtySecondsIsSaidOnce() {
        Optional<String> warning = LockWaitBound.warning(Engine.dialectNamed("derby"), derby(null), LOCK_TIMEOUT);

        assertTrue(warning.orElseThrow().contains("60 s"), warning.toString());
        assertTrue(warning.orElseThrow().contains("lock-timeout (PT10S)"), warning.toString());
    }

    @Test
    void aDerbyTimeoutWithinLockTimeoutIsNotAWarning() {
        assertEquals(Optional.empty(), LockWaitBound.warning(Engine.dialectNamed("derby"), derby("10"), LOCK_TIMEOUT));
        assertTrue(LockWaitBound.warning(Engine.dialectNamed("derby"), derby("11"), LOCK_TIMEOUT)
                .isPresent());
    }

    @Test
    void anEngineWhoseQueryTimeoutBoundsTheWaitHasNothingToSay() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:" + UUID.randomUUID());

        assertEquals(Optional.empty(), LockWaitBound.warning(Engine.dialectNamed("h2"), h2, LOCK_TIMEOUT));
    }

    /** A new in-memory Derby database, with {@code derby.locks.waitTimeout} set to {@code seconds} unless null. */
    private static DataSource derby(String seconds) {
        BasicEmbeddedDataSource40 dataSource = new BasicEmbeddedDataSource40();
        dataSource.setDatabaseName("memory:" + UUID.randomUUID());
        dataSource.setCreateDatabase("create");
        if (seconds != null) {
            try (Connection connection = dataSource.getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute(
                        "CALL SYSCS_UTIL.SYSCS_SET_DATABASE_PROPERTY('derby.locks.waitTimeout', '" + seconds + "')");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return dataSource;
    }
}
