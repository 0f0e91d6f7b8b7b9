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
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * Reads and adds to the cluster-wide counters in {@code idempotency_counter}, in the caller's transaction. Every
 * node adds its own increments, so a row holds the sum over all nodes since the table was created.
 *
 * <p>Thread-safe: it holds only the datasource and the dialect.
 */
public final class CounterStore {
    /** The counter of keyless requests, one row per client (principal and User-Agent family). */
    public static final String KEYLESS = "KEYLESS";

    /** One counter: the outcome counters have an empty principal and user agent. */
    public record Key(String operation, String counter, String principal, String userAgent) implements Comparable<Key> {
        @Override
        public int compareTo(Key other) {
            return (operation + '\0' + counter + '\0' + principal + '\0' + userAgent)
                    .compareTo(
                            other.operation + '\0' + other.counter + '\0' + other.principal + '\0' + other.userAgent);
        }
    }

    /** A counter's value, and when a node last added to it. */
    public record Value(Key key, long count, Instant updatedAt) {}

    private final DataSource dataSource;
    private final SqlDialect dialect;

    public CounterStore(DataSource dataSource, SqlDialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
    }

    /**
     * Adds the increments, in key order so that nodes adding at once never deadlock.
     *
     * @throws StoreException if the database refused
     */
    public void add(Map<Key, Long> increments) {
        try (Connection connection = dataSource.getConnection()) {
            for (SqlStatement statement : dialect.addToCounterStatements()) {
                try (PreparedStatement add = statement.prepare(connection)) {
                    for (Map.Entry<Key, Long> increment : new TreeMap<>(increments).entrySet()) {
                        Key key = increment.getKey();
                        statement.bind(
                                add,
                                Values.of()
                                        .text("operation", key.operation())
                                        .text("counter", key.counter())
                                        .text("principal", key.principal())
                                        .text("userAgent", key.userAgent())
                                        .number("amount", increment.getValue()));
                        add.addBatch();
                    }
                    add.executeBatch();
                }
            }
        } catch (SQLException e) {
            throw new StoreException("adding to idempotency_counter failed: " + e.getMessage(), e);
        }
    }

    /** @throws StoreException if the database could not be read */
    public List<Value> readAll() {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = dialect.selectCountersStatement().prepare(connection);
                ResultSet rows = select.executeQuery()) {
            List<Value> values = new ArrayList<>();
            while (rows.next()) {
                // Oracle stores '' as NULL: the outcome counters' empty principal and user agent read back as null.
                values.add(new Value(
                        new Key(
                                rows.getString(1),
                                rows.getString(2),
                                Optional.ofNullable(rows.getString(3)).orElse(""),
                                Optional.ofNullable(rows.getString(4)).orElse("")),
                        rows.getLong(5),
                        dialect.readInstant(rows, 6)));
            }
            return values;
        } catch (SQLException e) {
            throw new StoreException("reading idempotency_counter failed: " + e.getMessage(), e);
        }
    }
}
