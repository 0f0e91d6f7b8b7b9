package dev.idempotency.rollout;

import dev.idempotency.store.RolloutStore;
import dev.idempotency.tx.Transaction;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

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
    private final RolloutStore store;
    private final Instant defaultSince = Instant.now();
    private volatile Snapshot snapshot;

    public RolloutModes(RolloutMode defaultMode, Duration refresh, Transaction transaction, RolloutStore store) {
        this.defaultMode = defaultMode;
        this.refresh = refresh;
        this.transaction = transaction;
        this.store = store;
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
        transaction.inTransaction(() -> {
            store.write(operation, mode.name(), changedBy);
            return null;
        });
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
        try {
            Map<String, Setting> settings = new TreeMap<>();
            for (RolloutStore.StoredMode stored : store.read()) {
                settings.put(
                        stored.operation(),
                        new Setting(RolloutMode.valueOf(stored.mode()), stored.changedBy(), stored.changedAt()));
            }
            return settings;
        } finally {
            transaction.rollback();
        }
    }
}
