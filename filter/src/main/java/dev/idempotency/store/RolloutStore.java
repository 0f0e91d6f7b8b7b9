package dev.idempotency.store;

import dev.idempotency.StoreException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.dialect.SqlStatement.Values;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * The rollout switches in SQL: each operation's mode in {@code idempotency_rollout} and every switch in {@code
 * idempotency_rollout_history}, in the caller's transaction. What the modes mean, and how long a node trusts what it
 * read, is {@code rollout.RolloutModes}'s.
 *
 * <p>Thread-safe: it holds only the datasource and the dialect.
 */
public final class RolloutStore {
    /** One row of {@code idempotency_rollout}: the mode as stored, who switched it, and when. */
    public record StoredMode(String operation, String mode, String changedBy, Instant changedAt) {}

    private final DataSource dataSource;
    private final SqlDialect dialect;

    public RolloutStore(DataSource dataSource, SqlDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
    }

    /**
     * Sets the operation's mode and adds the switch to the history.
     *
     * @throws StoreException if the database refused
     */
    public void write(String operation, String mode, String changedBy) {
        Values change =
                Values.of().text("operation", operation).text("mode", mode).text("changedBy", changedBy);
        List<SqlStatement> statements = new ArrayList<>(dialect.upsertRolloutStatements());
        statements.add(dialect.insertRolloutHistoryStatement());
        try (Connection connection = dataSource.getConnection()) {
            for (SqlStatement statement : statements) {
                try (PreparedStatement write = statement.prepare(connection, change)) {
                    write.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new StoreException("switching the rollout mode of " + operation + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * Every operation's stored mode.
     *
     * @throws StoreException if the database refused
     */
    public List<StoredMode> read() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = dialect.selectRolloutStatement().prepare(connection);
                ResultSet rows = select.executeQuery()) {
            List<StoredMode> modes = new ArrayList<>();
            while (rows.next()) {
                modes.add(new StoredMode(
                        rows.getString(1), rows.getString(2), rows.getString(3), dialect.readInstant(rows, 4)));
            }
            return modes;
        } catch (SQLException e) {
            throw new StoreException("reading idempotency_rollout failed: " + e.getMessage(), e);
        }
    }
}
