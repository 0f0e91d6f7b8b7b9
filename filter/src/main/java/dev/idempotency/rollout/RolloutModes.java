package dev.idempotency.rollout;

import dev.idempotency.StoreException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.dialect.SqlStatement.Values;
import dev.idempotency.tx.Transaction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Every operation's rollout mode, read from the {@code idempotency_rollout} table and cached for {@code
 * rollout-refresh}, so a switch made on any node reaches every node within that delay without a redeploy.
 * A request reads its mode once, at its start, so a switch never changes the outcome of a request in
 * flight.
 *
 * <p>Thread-safe. When the table cannot be read, the last modes read stay in force (and the default mode
 * until a first read succeeds), so a database hiccup never silently weakens {@code REQUIRED}.
 */
public final class RolloutModes {
    private static final Logger LOG = Logger.getLogger(RolloutModes.class.getName());

    /** An operation's current mode and who set it when; {@code changedBy} is {@code null} for the default. */
    public record Setting(RolloutMode mode, String changedBy, Instant changedAt) {}

    /** The modes read, and when; {@code stale} forces the next use to read again. */
    private record Snapshot(Map<String, Setting> settings, long loadedAtNanos, boolean stale) {}

    private final RolloutMode defaultMode;
    private final Duration refresh;
    private final Transaction transaction;
    private final DataSource dataSource;
    private final SqlDialect dialect;
    private final Instant defaultSince = Instant.now();
    private volatile Snapshot snapshot;

    public RolloutModes(
            RolloutMode defaultMode,
            Duration refresh,
            Transaction transaction,
            DataSource dataSource,
            SqlDialect dialect) {
        this.defaultMode = defaultMode;
        this.refresh = refresh;
        this.transaction = transaction;
        this.dataSource = dataSource;
        this.dialect = dialect;
    }

    /** The operation's mode as of at most {@code rollout-refresh} ago. */
    public Setting settingFor(String operation) {
        return current().getOrDefault(operation, new Setting(defaultMode, null, defaultSince));
    }

    /** The settings stored in the table, refreshed if older than {@code rollout-refresh}. */
    public Map<String, Setting> current() {
        Snapshot seen = snapshot;
        if (seen == null || seen.stale() || System.nanoTime() - seen.loadedAtNanos() > refresh.toNanos()) {
            seen = reload(seen);
        }
        return seen.settings();
    }

    /**
     * Switches an operation's mode for every node, and records who did it in the history table. Runs in its
     * own transaction, so it must not be called inside another one.
     */
    public void change(String operation, RolloutMode mode, String changedBy) {
        try {
            transaction.inTransaction(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    Values change = Values.of()
                            .text("operation", operation)
                            .text("mode", mode.name())
                            .text("changedBy", changedBy);
                    List<SqlStatement> statements = new ArrayList<>(dialect.upsertRolloutStatements());
                    statements.add(dialect.insertRolloutHistoryStatement());
                    for (SqlStatement statement : statements) {
                        try (PreparedStatement write = statement.prepare(connection, change)) {
                            write.executeUpdate();
                        }
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StoreException("switching the rollout mode of " + operation + " failed: " + e.getMessage(), e);
        }
        LOG.info(() -> "rollout of " + operation + " switched to " + mode + " by " + changedBy);
        // Stale, not forgotten: if the next read fails, the modes read before stay in force.
        Snapshot seen = snapshot;
        snapshot = new Snapshot(seen == null ? Collections.emptyMap() : seen.settings(), System.nanoTime(), true);
    }

    private synchronized Snapshot reload(Snapshot seen) {
        if (snapshot != seen) {
            return snapshot; // another thread reloaded while this one waited
        }
        try {
            Map<String, Setting> settings = read();
            snapshot = new Snapshot(settings, System.nanoTime(), false);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "cannot read idempotency_rollout; keeping the last modes read", e);
            Map<String, Setting> kept = seen == null ? Collections.emptyMap() : seen.settings();
            snapshot = new Snapshot(kept, System.nanoTime(), false);
        }
        return snapshot;
    }

    private Map<String, Setting> read() {
        transaction.begin(Optional.empty());
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = dialect.selectRolloutStatement().prepare(connection);
                ResultSet rows = select.executeQuery()) {
            Map<String, Setting> settings = new TreeMap<>();
            while (rows.next()) {
                settings.put(
                        rows.getString(1),
                        new Setting(
                                RolloutMode.valueOf(rows.getString(2)),
                                rows.getString(3),
                                dialect.readInstant(rows, 4)));
            }
            return settings;
        } catch (SQLException e) {
            throw new StoreException("reading idempotency_rollout failed: " + e.getMessage(), e);
        } finally {
            transaction.rollback();
        }
    }
}
