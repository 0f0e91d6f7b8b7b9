package dev.idempotency.sample.bench;

import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement.Values;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.UUID;

/**
 * The floor of the design: the statements of scenarios a and b, sent over JDBC straight to PostgreSQL on a
 * connection of their own, with no HTTP, no application server and no filter. The difference between the
 * floor's a and b is what the two extra statements cost the database; the rest of b's overhead over a is
 * the server's and the filter's own work.
 *
 * <p>Not thread-safe: one instance per client thread, each on its own connection and account.
 */
final class StatementFloor implements AutoCloseable {
    private static final SqlDialect POSTGRESQL = Engine.dialectNamed("postgresql");
    private static final String REQUEST_TEMPLATE =
            "{\"body\":{\"json\":{\"amount\":1}},\"method\":\"POST\",\"operation\":\"debit:v1\",\"path\":"
                    + "\"/api/accounts/%d/debits\",\"query\":[]}";
    private static final String HEADERS = "{\"Content-Type\":[\"application/json\"]}";

    private final Connection connection;
    private final long account;

    StatementFloor(Connection connection, long account) throws SQLException {
        this.connection = connection;
        this.account = account;
        connection.setAutoCommit(false);
    }

    /** Scenario a's statements: the application's row lock and update, then the commit. */
    Void bare() {
        try {
            lockAndDebit();
            connection.commit();
            return null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Scenario b's statements: the filter's claim, the application's two, the filter's completion, the commit. */
    Void covered() {
        String key = UUID.randomUUID().toString();
        try {
            Values identity = Values.of()
                    .text("scope", "alice")
                    .text("operation", "debit:v1")
                    .text("requestKey", key);
            try (PreparedStatement claim = POSTGRESQL
                    .claimStatement()
                    .prepare(
                            connection,
                            identity.text("request", String.format(REQUEST_TEMPLATE, account))
                                    .number("retentionSeconds", 86_400))) {
                claim.executeUpdate();
            }
            long balance = lockAndDebit();
            try (PreparedStatement complete = POSTGRESQL
                    .completeStatement()
                    .prepare(
                            connection,
                            identity.number("status", 200)
                                    .text("headers", HEADERS)
                                    .bytes(
                                            "body",
                                            ("{\"balance\":" + balance + "}").getBytes(StandardCharsets.UTF_8)))) {
                complete.executeUpdate();
            }
            connection.commit();
            return null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * b's work with one write of the record instead of two, the design tried beside the filter's: a lock on the
     * key's hash for the transaction and a look for its record in one statement, the application's two, one insert
     * of the complete record, the commit. The same round trips as b; one row version and one index entry fewer.
     * Without waiting duplicates, so only its cost is measured here, not its correctness.
     */
    Void coveredWithOneWrite() {
        String key = UUID.randomUUID().toString();
        try {
            try (PreparedStatement lookUp = connection.prepareStatement("SELECT pg_try_advisory_xact_lock("
                    + "hashtextextended(? || chr(31) || ? || chr(31) || ?, 0)), (SELECT count(*) FROM request_result"
                    + " WHERE scope = ? AND operation = ? AND request_key = ?)")) {
                for (int i = 0; i < 2; i++) {
                    lookUp.setString(3 * i + 1, "alice");
                    lookUp.setString(3 * i + 2, "debit:v1");
                    lookUp.setString(3 * i + 3, key);
                }
                try (ResultSet row = lookUp.executeQuery()) {
                    row.next();
                }
            }
            long balance = lockAndDebit();
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO request_result (scope,"
                    + " operation, request_key, request, response_status, response_headers, response_body,"
                    + " created_at, expires_at) VALUES (?, ?, ?, ?, 200, ?, ?, now(), now() + interval '1 day')"
                    + " ON CONFLICT (scope, operation, request_key) DO NOTHING")) {
                insert.setString(1, "alice");
                insert.setString(2, "debit:v1");
                insert.setString(3, key);
                insert.setString(4, String.format(REQUEST_TEMPLATE, account));
                insert.setString(5, HEADERS);
                insert.setBytes(6, ("{\"balance\":" + balance + "}").getBytes(StandardCharsets.UTF_8));
                insert.executeUpdate();
            }
            connection.commit();
            return null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long lockAndDebit() throws SQLException {
        long balance;
        try (PreparedStatement lock =
                connection.prepareStatement("SELECT id, balance, owner FROM account WHERE id = ? FOR UPDATE")) {
            lock.setLong(1, account);
            try (ResultSet row = lock.executeQuery()) {
                row.next();
                balance = row.getLong(2) - 1;
            }
        }
        try (PreparedStatement update = connection.prepareStatement("UPDATE account SET balance = ? WHERE id = ?")) {
            update.setLong(1, balance);
            update.setLong(2, account);
            update.executeUpdate();
        }
        return balance;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
