package dev.idempotency.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.TransactionConflictException;
import dev.idempotency.dialect.PostgreSqlDialect;
import dev.idempotency.testing.StrictProxy;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.Query;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The claim's handling of what the database answers, without a database. */
class RequestResultStoreTest {
    private static final RequestResultId ID = new RequestResultId("alice", "debit:v1", "key-1");

    private final StrictProxy proxies = new StrictProxy();
    private final Map<Integer, Object> parameters = new HashMap<>();
    private final List<Object> timeoutHints = new ArrayList<>();
    private int inserts;
    private int finds;

    /** An entity manager whose claim INSERT answers with {@code insert} and whose find answers null. */
    private EntityManager entityManager(IntSupplier insert) {
        Map<String, StrictProxy.Answer> queryAnswers = new HashMap<>();
        Query[] query = new Query[1];
        queryAnswers.put("setParameter", args -> {
            parameters.put((Integer) args[0], args[1]);
            return query[0];
        });
        queryAnswers.put("setHint", args -> {
            assertEquals("jakarta.persistence.query.timeout", args[0]);
            timeoutHints.add(args[1]);
            return query[0];
        });
        queryAnswers.put("executeUpdate", args -> {
            inserts++;
            return insert.getAsInt();
        });
        query[0] = proxies.of(Query.class, queryAnswers);

        Map<String, StrictProxy.Answer> answers = new HashMap<>();
        answers.put("createNativeQuery", args -> {
            assertEquals(new PostgreSqlDialect().claimStatement(), args[0]);
            return query[0];
        });
        answers.put("find", args -> {
            finds++;
            assertSame(RequestResult.class, args[0]);
            assertEquals(ID, args[1]);
            return null;
        });
        return proxies.of(EntityManager.class, answers);
    }

    private RequestResultStore store(IntSupplier insert) {
        return new RequestResultStore(entityManager(insert), new PostgreSqlDialect());
    }

    private static PersistenceException failure(String sqlState) {
        return new PersistenceException("wrapped", new SQLException("database said no", sqlState));
    }

    @AfterEach
    void noOtherCalls() {
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void insertedRowMeansClaimed() {
        ClaimOutcome outcome =
                store(() -> 1).claim(ID, "{\"canonical\":true}", Duration.ofHours(24), Duration.ofSeconds(10));

        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
        assertEquals(Map.of(1, "alice", 2, "debit:v1", 3, "key-1", 4, "{\"canonical\":true}", 5, "PT24H"), parameters);
        assertEquals(List.of(10_000), timeoutHints);
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
            assertInstanceOf(PersistenceException.class, e.getCause());
        }
    }

    @Test
    void otherDatabaseFailuresPropagateUnchanged() {
        PersistenceException undefinedTable = failure("42P01");
        RequestResultStore store = store(() -> {
            throw undefinedTable;
        });

        PersistenceException e = assertThrows(
                PersistenceException.class, () -> store.claim(ID, "{}", Duration.ofHours(1), Duration.ofSeconds(1)));
        assertSame(undefinedTable, e);
    }

    @Test
    void longLockTimeoutDoesNotBreakTheClaim() {
        RequestResultStore store = store(() -> 1);

        ClaimOutcome outcome =
                assertDoesNotThrow(() -> store.claim(ID, "{}", Duration.ofHours(24), Duration.ofDays(30)));
        assertInstanceOf(ClaimOutcome.Claimed.class, outcome);
    }
}
