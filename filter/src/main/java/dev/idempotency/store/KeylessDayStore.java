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
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * The cluster-wide keyless history in {@code idempotency_keyless_day}, in the caller's transaction: every node
 * adds its increments per client and UTC day, the admin servlet reads the window, the purge trims what the window
 * has passed. Days are written as ISO dates and instants as epoch seconds, so no engine's date type is involved.
 *
 * <p>Thread-safe: it holds only the datasource and the dialect.
 */
public final class KeylessDayStore {
    private final DataSource dataSource;
    private final SqlDialect dialect;

    public KeylessDayStore(DataSource dataSource, SqlDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
    }

    /**
     * Adds the increments, in key order so that nodes adding at once never deadlock.
     *
     * @throws StoreException if the database refused
     */
    public void add(Collection<KeylessDay> increments) {
        if (increments.isEmpty()) {
            return;
        }
        List<KeylessDay> inKeyOrder =
                increments.stream().sorted(KeylessDay.KEY_ORDER).collect(Collectors.toList());
        try (Connection connection = dataSource.getConnection()) {
            for (SqlStatement statement : dialect.addToKeylessDayStatements()) {
                try (PreparedStatement add = statement.prepare(connection)) {
                    for (KeylessDay increment : inKeyOrder) {
                        statement.bind(
                                add,
                                Values.of()
                                        .text("operation", increment.operation())
                                        .text("principal", increment.principal())
                                        .text("userAgent", increment.userAgent())
                                        .text("day", increment.day().toString())
                                        .number("requests", increment.requests())
                                        .number("duplicates", increment.duplicates())
                                        .number(
                                                "firstSeen",
                                                increment.firstSeen().getEpochSecond())
                                        .number("lastSeen", increment.lastSeen().getEpochSecond()));
                        add.addBatch();
                    }
                    add.executeBatch();
                }
            }
        } catch (SQLException e) {
            throw new StoreException("adding to idempotency_keyless_day failed: " + e.getMessage(), e);
        }
    }

    /**
     * Every client's days from {@code since} on, summed over every node as of each node's last flush.
     *
     * @throws StoreException if the database could not be read
     */
    public List<KeylessDay> readSince(LocalDate since) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = dialect.selectKeylessDaysStatement()
                        .prepare(connection, Values.of().text("since", since.toString()));
                ResultSet rows = select.executeQuery()) {
            List<KeylessDay> days = new ArrayList<>();
            while (rows.next()) {
                days.add(new KeylessDay(
                        rows.getString(1),
                        rows.getString(2),
                        rows.getString(3),
                        LocalDate.parse(rows.getString(4)),
                        rows.getLong(5),
                        rows.getLong(6),
                        Instant.ofEpochSecond(rows.getLong(7)),
                        Instant.ofEpochSecond(rows.getLong(8))));
            }
            days.sort(KeylessDay.KEY_ORDER);
            return days;
        } catch (SQLException e) {
            throw new StoreException("reading idempotency_keyless_day failed: " + e.getMessage(), e);
        }
    }

    /**
     * Deletes the days before {@code before}: one statement, since the table holds at most one row per client and
     * day of the window.
     *
     * @return how many rows were deleted
     * @throws StoreException if the database refused
     */
    public int deleteBefore(LocalDate before) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = dialect.deleteKeylessDaysStatement()
                        .prepare(connection, Values.of().text("before", before.toString()))) {
            return delete.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException("trimming idempotency_keyless_day failed: " + e.getMessage(), e);
        }
    }
}
