package dev.idempotency.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.testing.StrictProxy;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The claim's handling of what the database answers, without a database. */
class RequestResultStoreTest {
    private static final RequestResultId ID = new RequestResultId("alice", "debit:v1", "key-1");
    private static final SqlDialect DIALECT = Engine.dialectNamed("postgresql");

    private final StrictProxy proxies = new StrictProxy();
    /** The claim's parameters by name, as bound on the claim statement. */
    private final Map<String, Object> parameters = new HashMap<>();

    private final List<Object> queryTimeouts = new ArrayList<>();
    /** The record a claim that is a query sees committed before it, in the select's columns; none if empty. */
    private final Map<Integer, Object> seenColumns = new HashMap<>();

    private int inserts;
    private int finds;
    private int openConnections;

    /**
     * A datasource whose claim answers with {@code insert} and whose lookup finds no row. Where the dialect's claim
     * is a query (PostgreSQL), its row says claimed or taken as {@code insert} does, and holds {@link #seenColumns}.
     */
    private DataSource dataSource(SqlDialect dialect, InsertAnswer insert) {
        Map<String, SqlStatement> claims = new HashMap<>();
        for (SqlStatement statement : List.of(dialect.claimStatement(), dialect.claimWithoutWaitingStatement())) {
            claims.put(statement.jdbc(), statement);
            dialect.claimReturningCommittedStatement(statement).ifPresent(query -> claims.put(query.jdbc(), query));
        }
        List<String> claimParameters = new ArrayList<>();
        Map<String, StrictProxy.Answer> claimAnswers = new HashMap<>();
        claimAnswers.put("setString", args -> {
            parameters.put(claimParameters.get((Integer) args[0] - 1), args[1]);
            return null;
        });
        claimAnswers.put("setLong", args -> {
            parameters.put(claimParameters.get((Integer) args[0] - 1), args[1]);
            return null;
        });
        claimAnswers.put("setQueryTimeout", args -> {
            queryTimeouts.add(args[0]);
            return null;
        });
        claimAnswers.put("executeUpdate", args -> {
            inserts++;
            return insert.rows();
        });
        claimAnswers.put("executeQuery", args -> {
            inserts++;
            return claimRow(insert.rows());
        });
        claimAnswers.put("close", args -> null);
        PreparedStatement claim = proxies.of(PreparedStatement.class, claimAnswers);

        ResultSet noRow = proxies.of(ResultSet.class, Map.of("next", args -> false, "close", args -> null));
        Map<String, StrictProxy.Answer> selectAnswers = new HashMap<>();
        List<String> selectParameters = dialect.selectRequestResultStatement().parameters();
        Map<String, String> identity = Map.of("scope", "alice", "operation", "debit:v1", "requestKey", "key-1");
        selectAnswers.put("setString", args -> {
            assertEquals(identity.get(selectParameters.get((Integer) args[0] - 1)), args[1]);
            return null;
        });
        selectAnswers.put("executeQuery", args -> {
            finds++;
            return noRow;
        });
        selectAnswers.put("close", args -> null);
        PreparedStatement select = proxies.of(PreparedStatement.class, selectAnswers);

        Map<String, StrictProxy.Answer> connectionAnswers = new HashMap<>();
        connectionAnswers.put("prepareStatement", args -> {
            if (claims.containsKey(args[0])) {
                claimParameters.clear();
                claimParameters.addAll(claims.get(args[0]).parameters());
                return claim;
            }
            assertEquals(dialect.selectRequestResultStatement().jdbc(), args[0]);
            return select;
        });
        connectionAnswers.put("close", args -> {
            openConnections--;
            return null;
        });
        Connection connection = proxies.of(Connection.class, connectionAnswers);
        return proxies.of(DataSource.class, Map.of("getConnection", args -> {
            openConnections++;
            return connection;
        }));
    }

    /** The one row of a claim that is a query: {@code claimed} from the rows inserted, the seen record's columns. */
    private ResultSet claimRow(int inserted) {
        Map<String, StrictProxy.Answer> answers = new HashMap<>();
        Object[] last = new Object[1];
        StrictProxy.Answer column = args -> {
            last[0] = args[0].equals("claimed") ? Integer.valueOf(inserted) : seenColumns.get(args[0]);
            return last[0];
        };
        answers.put("next", args -> true);
        answers.put("getString", column);
        answers.put("getBytes", column);
        answers.put("getTimestamp", column);
        answers.put("getInt", args -> {
            Object value = column.answer(args);
            return value == null ? 0 : value;
        });
        answers.put("wasNull", args -> last[0] == null);
        answers.put("close", args -> null);
        return proxies.of(ResultSet.class, answers);
    }

    private RequestResultStore store(InsertAnswer insert) {
        return store(DIALECT, insert);
    }

    private RequestResultStore store(SqlDialect dialect, InsertAnswer insert) {
        return new RequestResultStore(dataSource(dialect, insert), dialect);
    }

    private static SQLException failure(String sqlState) {
        return new SQLException("database said no", sqlState);
    }

    private static SQLException failure(String sqlState, int vendorCode) {
        return new SQLException("database said no", sqlState, vendorCode);
    }

    /** What the claim INSERT answers: a row count, or the SQLException a real driver throws. */
    @FunctionalInterface
    private interface InsertAnswer {
        int rows() throws SQLException;
    }

    @AfterEach
    void noOtherCallsAndEveryConnectionClosed() {
        assertEquals(List.of(), proxies.unexpectedCalls());
        assertEquals(0, openConnections);
    }

    @Test
    void insertedRowMeansClaimed() {
        ClaimOutcome outcome =
                store(() -> 1).claim(ID, "{\"canonical\":true}", Duration.ofHours(24), Duration.ofSeconds(10));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
        assertEquals(
                Map.of(
                        "scope",
                        "alice",
                        "operation",
                        "debit:v1",
                        "requestKey",
                        "key-1",
                        "request",
                        "{\"canonical\":true}",
                        "retentionSeconds",
                        86_400L),
                parameters);
        assertEquals(List.of(10), queryTimeouts);
        assertEquals(0, finds);
    }

    @Test
    void recordCommittedBeforeTheClaimIsReplayedFromTheClaimItselfWithoutASeparateRead() {
        // PostgreSQL's claim is a query that also returns a record committed before it began.
        Instant createdAt = Instant.parse("2026-12-01T10:00:00Z");
        seenColumns.put(1, "{\"canonical\":true}");
        seenColumns.put(2, 201);
        seenColumns.put(3, "{\"Location\":[\"/debits/7\"],\":writer-charset\":[\"UTF-8\"]}");
        seenColumns.put(4, "done".getBytes(StandardCharsets.UTF_8));
        seenColumns.put(5, Timestamp.from(createdAt.plus(Duration.ofHours(24))));
        seenColumns.put(6, Timestamp.from(createdAt));

        for (Duration maxWait : List.of(Duration.ofSeconds(10), Duration.ZERO)) {
            ClaimOutcome outcome = store(() -> 0).claim(ID, "{\"canonical\":true}", Duration.ofHours(24), maxWait);

            StoredRecord record = assertInstanceOf(ClaimOutcome.Existing.class, outcome, maxWait.toString())
                    .record();
            assertEquals(ID, record.id());
            assertEquals("{\"canonical\":true}", record.request());
            assertEquals(201, record.response().status());
            assertEquals(
                    Map.of("Location", List.of("/debits/7")), record.response().headers());
            assertEquals("UTF-8", record.response().writerCharset());
            assertEquals("done", new String(record.response().body(), StandardCharsets.UTF_8));
            assertEquals(createdAt, record.createdAt());
            assertEquals(createdAt.plus(Duration.ofHours(24)), record.expiresAt());
        }
        assertEquals(2, inserts);
        assertEquals(0, finds);
    }

    @Test
    void keyTakenButRecordNeverReadableGivesUpAfterThreeAttempts() {
        RequestResultStore store = store(() -> 0);

        assertThrows(
                RequestInProgressException.class,
                () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)));
        assertEquals(3, inserts);
        assertEquals(3, finds);
    }

    @Test
    void recordThatVanishedBetweenClaimAndReadIsClaimedOnTheNextAttempt() {
        // A purge deleted the winner's expired record after the INSERT saw it and before the SELECT looked.
        int[] answers = {0, 1};
        RequestResultStore store = store(() -> answers[inserts - 1]);

        ClaimOutcome outcome = store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
        assertEquals(2, inserts);
        assertEquals(1, finds);
    }

    @Test
    void waitTimeoutMeansRequestInProgress() {
        for (String sqlState : List.of("57014", "55P03")) {
            RequestResultStore store = store(() -> {
                throw failure(sqlState);
            });

            assertThrows(
                    RequestInProgressException.class,
                    () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)),
                    sqlState);
        }
    }

    @Test
    void serializationFailureOrDeadlockIsATransactionConflict() {
        for (String sqlState : List.of("40001", "40P01")) {
            RequestResultStore store = store(() -> {
                throw failure(sqlState);
            });

            TransactionConflictException e = assertThrows(
                    TransactionConflictException.class,
                    () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)),
                    sqlState);
            assertInstanceOf(SQLException.class, e.getCause());
        }
    }

    @Test
    void otherDatabaseFailuresAreStoreFailuresNamingTheSqlState() {
        SQLException undefinedTable = failure("42P01");
        RequestResultStore store = store(() -> {
            throw undefinedTable;
        });

        StoreException e = assertThrows(
                StoreException.class, () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)));
        assertSame(undefinedTable, e.getCause());
        assertTrue(e.getMessage().contains("42P01"), e.getMessage());
    }

    @Test
    void longLockTimeoutDoesNotBreakTheClaim() {
        RequestResultStore store = store(() -> 1);

        ClaimOutcome outcome =
                assertDoesNotThrow(() -> store.claim(ID, "{}", Duration.ofHours(24), Duration.ofDays(30)));
        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
    }

    @Test
    void busyKeyOnAnEngineThatDoesNotWaitIsTriedAgainUntilTheHolderIsGone() {
        // H2 answers at once while another transaction holds an uncommitted row with the key.
        RequestResultStore store = store(Engine.dialectNamed("h2"), () -> {
            if (inserts < 3) {
                throw failure("HYT00", 90131);
            }
            return 1;
        });

        ClaimOutcome outcome = store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(10));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
        assertEquals(3, inserts);
        assertEquals(0, finds);
    }

    @Test
    void busyKeyPastTheWaitBoundMeansRequestInProgress() {
        RequestResultStore store = store(Engine.dialectNamed("h2"), () -> {
            throw failure("HYT00", 90131);
        });

        assertThrows(
                RequestInProgressException.class,
                () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)));
        assertTrue(inserts > 1, "tried again before giving up: " + inserts);
    }

    @Test
    void duplicateKeyRaisedByARaceIsReadAsTaken() {
        // The winner committed between H2's NOT EXISTS check and its insert; here its record then vanished.
        RequestResultStore store = store(Engine.dialectNamed("h2"), () -> {
            if (inserts == 1) {
                throw failure("23505", 23505);
            }
            return 1;
        });

        ClaimOutcome outcome = store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
        assertEquals(1, finds);
    }

    @Test
    void mariaDbLockWaitAndStatementTimeoutsMeanRequestInProgress() {
        for (SQLException timeout : List.of(failure("HY000", 1205), failure("70100", 1969), failure("70100", 0))) {
            RequestResultStore store = store(Engine.dialectNamed("mariadb"), () -> {
                throw timeout;
            });

            assertThrows(
                    RequestInProgressException.class,
                    () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)),
                    timeout.getErrorCode() + "");
        }
    }

    @Test
    void identityLongerThanBoundedKeyColumnsIsRefusedBeforeAnyStatement() {
        RequestResultStore store = store(Engine.dialectNamed("mariadb"), () -> 1);
        RequestResultId longScope = new RequestResultId("s".repeat(256), "debit:v1", "key-1");

        StoreException e = assertThrows(
                StoreException.class, () -> store.claim(longScope, "{}", Duration.ofHours(1), Duration.ofSeconds(1)));

        assertTrue(e.getMessage().contains("255"), e.getMessage());
        assertEquals(0, inserts);
    }

    @Test
    void identityPartEndingInASpaceIsRefusedOnSqlServerBeforeAnyStatement() {
        // SQL Server's = ignores trailing spaces: 'key-1 ' would share the record of 'key-1'.
        RequestResultStore store = store(Engine.dialectNamed("sqlserver"), () -> 1);
        for (RequestResultId id : List.of(
                new RequestResultId("alice", "debit:v1", "key-1 "),
                new RequestResultId("alice ", "debit:v1", "key-1"),
                new RequestResultId("alice", "debit:v1 ", "key-1"))) {
            StoreException e = assertThrows(
                    StoreException.class, () -> store.claim(id, "{}", Duration.ofHours(1), Duration.ofSeconds(1)));

            assertTrue(e.getMessage().contains("ends with a space"), e.getMessage());
            assertTrue(e.getMessage().contains(id.toString()), e.getMessage());
        }
        assertEquals(0, inserts);
    }

    @Test
    void identityPartEndingInASpaceIsItsOwnRecordElsewhere() {
        RequestResultStore store = store(Engine.dialectNamed("oracle"), () -> 1);

        ClaimOutcome outcome = store.claim(
                new RequestResultId("alice", "debit:v1", "key-1 "), "{}", Duration.ofHours(1), Duration.ofSeconds(1));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
    }

    @Test
    void oracleDuplicateAfterTheWinnersCommitIsReadAsTaken() {
        // ORA-00001 rolls back only the insert; the store then looks for the winner's row.
        RequestResultStore store = store(Engine.dialectNamed("oracle"), () -> {
            if (inserts == 1) {
                throw failure("23000", 1);
            }
            return 1;
        });

        ClaimOutcome outcome = store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
        assertEquals(1, finds);
    }

    @Test
    void sqlServerAndOracleWaitTimeoutsMeanRequestInProgress() {
        for (Map.Entry<String, SQLException> engineAndTimeout : List.of(
                Map.entry("sqlserver", new SQLException("The query has timed out.", "HY008", 0)),
                Map.entry("sqlserver", failure("S0001", 1222)),
                Map.entry("oracle", failure("72000", 1013)))) {
            String engine = engineAndTimeout.getKey();
            SQLException timeout = engineAndTimeout.getValue();
            RequestResultStore store = store(Engine.dialectNamed(engine), () -> {
                throw timeout;
            });

            assertThrows(
                    RequestInProgressException.class,
                    () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)),
                    engine + " " + timeout.getErrorCode());
        }
    }
}
