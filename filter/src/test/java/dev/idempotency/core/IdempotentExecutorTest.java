package dev.idempotency.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.config.EncryptionKeys;
import dev.idempotency.config.SettingsParser;
import dev.idempotency.dialect.Engine;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.metrics.Outcome;
import dev.idempotency.metrics.OutcomeListener;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.tx.LocalTransactions;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * The core's decision table, in-process and in milliseconds: a real in-memory H2 with local transactions stands
 * where the container and its datasource stand, and a piece of work that writes one row stands for the
 * application. Only what needs a container (rollback-only marks, JTA timeouts, a failing two-phase commit) is
 * left to the container tests.
 */
class IdempotentExecutorTest {
    private static final SqlDialect H2 = Engine.dialectNamed("h2");
    private static final Duration RETENTION = Duration.ofHours(1);

    private final String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    private final LocalTransactions transactions =
            new LocalTransactions(() -> DriverManager.getConnection(url), H2, null);
    private final AtomicInteger runs = new AtomicInteger();

    IdempotentExecutorTest() throws SQLException {
        new FilterSchema(transactions, H2, "the test database").createMissing();
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE effect (k VARCHAR(100) NOT NULL)");
        }
    }

    private IdempotentExecutor executor(Duration lockTimeout, EncryptionKeys keys) {
        return executor(lockTimeout, keys, OutcomeListener.all());
    }

    private IdempotentExecutor executor(Duration lockTimeout, EncryptionKeys keys, OutcomeListener listener) {
        return new IdempotentExecutor(
                transactions,
                new RequestResultStore(transactions, H2),
                new RecordEncryption(keys, keys.isEmpty() ? Set.of() : Set.of("debit:v1")),
                lockTimeout,
                Optional.empty(),
                listener);
    }

    /**
     * A node of its own (its own keys in flight, sharing only the database), whose attempts, once they found the key
     * taken or held, wait inside their transaction until {@code together} has counted all of them: so every one of
     * them is in flight at once, holding whatever its claim took.
     */
    private IdempotentExecutor nodeHolding(CountDownLatch together) {
        return executor(Duration.ofSeconds(5), EncryptionKeys.NONE, new OutcomeListener() {
            @Override
            public void requestEnded(String operation, Outcome outcome) {}

            @Override
            public void waitedForDuplicate(String operation, Duration waited) {
                together.countDown();
                await(together);
            }
        });
    }

    private final IdempotentExecutor executor = executor(Duration.ofSeconds(5), EncryptionKeys.NONE);

    private static Attempt attempt(String key, String amount) {
        return new Attempt(
                new RequestResultId("alice", "debit:v1", key),
                () -> new CanonicalRequest("{\"body\":{\"json\":{\"amount\":" + amount + "}}}"),
                RETENTION,
                () -> true);
    }

    /** The application: writes one row in the attempt's transaction, and answers with a storable outcome or not. */
    private IdempotentExecutor.Work<String, SQLException> work(String key, boolean storable, long holdMillis) {
        return () -> {
            runs.incrementAndGet();
            try (Connection connection = transactions.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO effect (k) VALUES (?)")) {
                insert.setString(1, key);
                insert.executeUpdate();
            }
            sleep(holdMillis);
            String body = "done:" + key;
            Optional<StoredResponse> toStore = storable
                    ? Optional.of(new StoredResponse(200, Map.of(), body.getBytes(StandardCharsets.UTF_8)))
                    : Optional.empty();
            return new IdempotentExecutor.Ran<>(body, toStore);
        };
    }

    @Test
    void theFirstAttemptRunsTheWorkAndCommitsItsOutcomeWithItsEffect() throws Exception {
        Decision<String> decision = executor.execute(attempt("k1", "100"), work("k1", true, 0));

        assertEquals(
                "done:k1", assertInstanceOf(Decision.Executed.class, decision).result());
        assertEquals(1, effects("k1"));
        assertEquals(1, records("k1"));
    }

    @Test
    void aRetryWithTheSameRequestReplaysTheStoredOutcomeWithoutRunningTheWork() throws Exception {
        executor.execute(attempt("k2", "100"), work("k2", true, 0));

        Decision<String> retry = executor.execute(attempt("k2", "100"), work("k2", true, 0));

        Decision.Replayed<?> replayed = assertInstanceOf(Decision.Replayed.class, retry);
        assertEquals("done:k2", new String(replayed.record().response().body(), StandardCharsets.UTF_8));
        assertEquals(1, runs.get());
        assertEquals(1, effects("k2"));
    }

    @Test
    void aRetryWithAnotherRequestIsMismatchedNamingTheDifferenceAndRunsNothing() throws Exception {
        executor.execute(attempt("k3", "100"), work("k3", true, 0));

        Decision<String> changed = executor.execute(attempt("k3", "101"), work("k3", true, 0));

        assertEquals(
                List.of("/body/json/amount"),
                assertInstanceOf(Decision.Mismatched.class, changed).differences());
        assertEquals(1, runs.get());
    }

    @Test
    void anOutcomeNotToKeepIsRolledBackWithItsEffectAndLeavesTheKeyFree() throws Exception {
        Decision<String> failed = executor.execute(attempt("k4", "100"), work("k4", false, 0));

        assertInstanceOf(Decision.RolledBack.class, failed);
        assertEquals(0, effects("k4"));
        assertEquals(0, records("k4"));
        assertInstanceOf(Decision.Executed.class, executor.execute(attempt("k4", "100"), work("k4", true, 0)));
    }

    @Test
    void workThatThrowsLeavesNothingAndTheKeyFree() throws Exception {
        IdempotentExecutor.Work<String, SQLException> throwing = () -> {
            work("k5", true, 0).run();
            throw new SQLException("the application failed after writing");
        };

        assertThrows(SQLException.class, () -> executor.execute(attempt("k5", "100"), throwing));

        assertEquals(0, effects("k5"));
        assertEquals(0, records("k5"));
        assertInstanceOf(Decision.Executed.class, executor.execute(attempt("k5", "100"), work("k5", true, 0)));
    }

    @Test
    void workTheDatabaseAbortsToProtectItsIsolationFailsAsAConflictAndLeavesTheKeyFree() throws Exception {
        // As an application or its framework throws it: the driver's serialization failure as a cause.
        IdempotentExecutor.Work<String, IllegalStateException> aborted = () -> {
            try {
                work("k12", true, 0).run();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
            throw new IllegalStateException(
                    "could not execute statement", new SQLException("could not serialize access", "40001"));
        };

        Decision<String> decision = executor.execute(attempt("k12", "100"), aborted);

        assertEquals(
                Decision.Failure.WORK_CONFLICT,
                assertInstanceOf(Decision.Failed.class, decision).failure());
        assertEquals(0, effects("k12"));
        assertEquals(0, records("k12"));
        assertInstanceOf(Decision.Executed.class, executor.execute(attempt("k12", "100"), work("k12", true, 0)));
    }

    @Test
    void workThatFailsForAnotherDatabaseReasonThrowsWhatItThrew() {
        IdempotentExecutor.Work<String, SQLException> duplicate = () -> {
            throw new SQLException("duplicate key", "23505");
        };

        assertThrows(SQLException.class, () -> executor.execute(attempt("k13", "100"), duplicate));
    }

    @Test
    void workWhoseOwnCommitTheContainerRefusedIsDecidedAsSuchReportedOnceAndLeavesTheKeyFree() throws Exception {
        // As WildFly's pool refuses a commit on a connection enlisted in the attempt's transaction.
        IdempotentExecutor.Work<String, IllegalStateException> selfManaged = () -> {
            try {
                work("k17", true, 0).run();
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
            throw new IllegalStateException(
                    "commit failed", new SQLException("IJ031019: You cannot commit during a managed transaction"));
        };
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                logged.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger logger = Logger.getLogger(IdempotentExecutor.class.getName());
        logger.addHandler(capture);
        Decision<String> first;
        Decision<String> second;
        try {
            first = executor.execute(attempt("k17", "100"), selfManaged);
            second = executor.execute(attempt("k17", "100"), selfManaged);
        } finally {
            logger.removeHandler(capture);
        }

        assertEquals(
                "java.sql.SQLException: IJ031019: You cannot commit during a managed transaction",
                assertInstanceOf(Decision.TransactionControlRefused.class, first)
                        .refusal());
        assertInstanceOf(Decision.TransactionControlRefused.class, second);
        assertEquals(2, runs.get());
        assertEquals(0, effects("k17"));
        assertEquals(0, records("k17"));
        List<LogRecord> severe = logged.stream()
                .filter(record -> record.getLevel() == Level.SEVERE)
                .toList();
        assertEquals(1, severe.size(), "reported once per operation");
        assertTrue(severe.get(0).getMessage().startsWith("debit:v1 manages its own transactions"));
    }

    @Test
    void aCallerWhoMayNotSeeTheRecordIsRefusedAndNothingRuns() throws Exception {
        executor.execute(attempt("k6", "100"), work("k6", true, 0));
        Attempt revoked =
                new Attempt(attempt("k6", "100").id(), attempt("k6", "100").request(), RETENTION, () -> false);

        assertInstanceOf(Decision.ReplayForbidden.class, executor.execute(revoked, work("k6", true, 0)));
        assertEquals(1, runs.get());
    }

    @Test
    void aDuplicateInFlightWaitsForTheFirstThenReplaysIt() throws Exception {
        Gate gate = new Gate();
        CompletableFuture<Decision<String>> first = CompletableFuture.supplyAsync(
                () -> executeQuietly(executor, attempt("k7", "100"), heldWork("k7", gate)));
        gate.awaitReached();

        CompletableFuture<Decision<String>> duplicate = new CompletableFuture<>();
        Thread duplicateThread = new Thread(
                () -> duplicate.complete(executeQuietly(executor, attempt("k7", "100"), work("k7", true, 0))));
        duplicateThread.start();
        awaitWaiting(duplicateThread);
        gate.open();

        assertInstanceOf(Decision.Executed.class, first.get());
        assertInstanceOf(Decision.Replayed.class, duplicate.get());
        assertEquals(1, runs.get());
        assertEquals(1, effects("k7"));
    }

    @Test
    void aDuplicateGivesUpAtTheLockTimeoutWhileTheFirstStillRuns() throws Exception {
        IdempotentExecutor impatient = executor(Duration.ofSeconds(1), EncryptionKeys.NONE);
        Gate gate = new Gate();
        CompletableFuture<Decision<String>> first = CompletableFuture.supplyAsync(
                () -> executeQuietly(impatient, attempt("k8", "100"), heldWork("k8", gate)));
        gate.awaitReached();

        Decision<String> duplicate;
        try {
            duplicate = impatient.execute(attempt("k8", "100"), work("k8", true, 0));
        } finally {
            gate.open();
        }

        assertEquals(
                Decision.Failure.IN_PROGRESS,
                assertInstanceOf(Decision.Failed.class, duplicate).failure());
        assertInstanceOf(Decision.Executed.class, first.get());
        assertEquals(1, runs.get());
    }

    /**
     * With a lock timeout far longer than the test, a duplicate that waited would not come back while the first is
     * held; coming back refused while the gate is still closed is what "at once" means.
     */
    @Test
    void aDuplicateOfAnOperationThatRejectsIsRefusedAtOnceAndTheFirstReplaysAfterwards() throws Exception {
        IdempotentExecutor patient = executor(Duration.ofHours(1), EncryptionKeys.NONE);
        Attempt rejecting = rejecting("k10");
        Gate gate = new Gate();
        CompletableFuture<Decision<String>> first =
                CompletableFuture.supplyAsync(() -> executeQuietly(patient, rejecting, heldWork("k10", gate)));
        gate.awaitReached();

        Decision<String> duplicate;
        try {
            duplicate = patient.execute(rejecting, work("k10", true, 0));
        } finally {
            gate.open();
        }

        assertEquals(
                Decision.Failure.IN_PROGRESS,
                assertInstanceOf(Decision.Failed.class, duplicate).failure());
        assertInstanceOf(Decision.Executed.class, first.get());
        assertInstanceOf(Decision.Replayed.class, patient.execute(rejecting, work("k10", true, 0)));
        assertEquals(1, runs.get());
    }

    @Test
    void eightRetriesAtOnceOfAFinishedRequestThatRejectsDuplicatesAreAllReplayedOnOneNode() throws Exception {
        assertAllReplayed(retriesAtOnce("k14", 8, 1));
    }

    @Test
    void eightRetriesAtOnceOfAFinishedRequestThatRejectsDuplicatesAreAllReplayedAcrossTwoNodes() throws Exception {
        assertAllReplayed(retriesAtOnce("k15", 8, 2));
    }

    /**
     * The first execution holds its claim, uncommitted, while duplicates arrive on its node (refused in memory) and
     * on another (refused by the database's claim): all are refused, and none runs the work.
     */
    @Test
    void duplicatesOfAnExecutionStillRunningThatRejectsAreRefusedOnItsNodeAndOnAnother() throws Exception {
        Attempt rejecting = rejecting("k16");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Decision<String>> first =
                CompletableFuture.supplyAsync(() -> executeQuietly(executor, rejecting, () -> {
                    IdempotentExecutor.Ran<String> ran = work("k16", true, 0).run();
                    running.countDown();
                    await(release);
                    return ran;
                }));
        await(running);
        IdempotentExecutor otherNode = executor(Duration.ofSeconds(5), EncryptionKeys.NONE);

        List<Decision<String>> duplicates;
        try {
            duplicates =
                    atOnce(8, i -> executeQuietly(i % 2 == 0 ? executor : otherNode, rejecting, work("k16", true, 0)));
        } finally {
            release.countDown();
        }

        for (Decision<String> duplicate : duplicates) {
            assertEquals(
                    Decision.Failure.IN_PROGRESS,
                    assertInstanceOf(Decision.Failed.class, duplicate).failure());
        }
        assertInstanceOf(Decision.Executed.class, first.get(30, TimeUnit.SECONDS));
        assertEquals(1, runs.get());
        assertEquals(1, effects("k16"));
        assertInstanceOf(Decision.Replayed.class, otherNode.execute(rejecting, work("k16", true, 0)));
    }

    /**
     * Executes {@code key} once under {@code concurrent=reject}, then sends {@code retries} retries of it at once,
     * spread over {@code nodes} nodes, each held in flight until all of them found the record.
     */
    private List<Decision<String>> retriesAtOnce(String key, int retries, int nodes) throws Exception {
        Attempt rejecting = rejecting(key);
        assertInstanceOf(Decision.Executed.class, executor.execute(rejecting, work(key, true, 0)));
        CountDownLatch together = new CountDownLatch(retries);
        List<IdempotentExecutor> cluster = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            cluster.add(nodeHolding(together));
        }
        List<Decision<String>> decisions =
                atOnce(retries, i -> executeQuietly(cluster.get(i % nodes), rejecting, work(key, true, 0)));
        assertEquals(1, runs.get());
        assertEquals(1, effects(key));
        return decisions;
    }

    private static void assertAllReplayed(List<Decision<String>> decisions) {
        for (Decision<String> decision : decisions) {
            Decision.Replayed<?> replayed = assertInstanceOf(Decision.Replayed.class, decision);
            assertTrue(new String(replayed.record().response().body(), StandardCharsets.UTF_8).startsWith("done:"));
        }
    }

    /** Runs {@code count} calls on as many threads, released together, and returns what each answered. */
    private static List<Decision<String>> atOnce(int count, IntFunction<Decision<String>> call) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(count);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Decision<String>>> calls = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                calls.add(threads.submit(() -> {
                    await(start);
                    return call.apply(index);
                }));
            }
            start.countDown();
            List<Decision<String>> decisions = new ArrayList<>();
            for (Future<Decision<String>> each : calls) {
                decisions.add(each.get(30, TimeUnit.SECONDS));
            }
            return decisions;
        } finally {
            threads.shutdownNow();
        }
    }

    /** Waits for the latch, bounded so that a broken interleaving fails the test instead of hanging it. */
    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aRetryAfterTheRetentionOfAnOperationThatRefusesLateRetriesIsRefusedAndRunsNothing() throws Exception {
        Attempt refusing = new Attempt(
                new RequestResultId("alice", "debit:v1", "k11"),
                () -> new CanonicalRequest("{\"body\":{\"json\":{\"amount\":100}}}"),
                RETENTION,
                () -> true,
                true,
                Duration.ofDays(7));
        executor.execute(refusing, work("k11", true, 0));
        assertInstanceOf(Decision.Replayed.class, executor.execute(refusing, work("k11", true, 0)));
        execute("UPDATE request_result SET created_at = DATEADD(HOUR, -2, created_at) WHERE request_key = 'k11'");

        Decision<String> late = executor.execute(refusing, work("k11", true, 0));

        assertInstanceOf(Decision.Expired.class, late);
        assertEquals(1, runs.get());
        assertEquals(1, effects("k11"));
        Decision<String> lateAndDifferent = executor.execute(
                new Attempt(
                        refusing.id(),
                        () -> new CanonicalRequest("{\"body\":{\"json\":{\"amount\":7}}}"),
                        RETENTION,
                        () -> true,
                        true,
                        Duration.ofDays(7)),
                work("k11", true, 0));
        assertInstanceOf(Decision.Mismatched.class, lateAndDifferent);
    }

    @Test
    void aRecordOfAnOperationThatRefusesLateRetriesIsKeptForItsRetentionAndTheWindow() throws Exception {
        Attempt refusing = new Attempt(
                new RequestResultId("alice", "debit:v1", "k12"),
                () -> new CanonicalRequest("{}"),
                RETENTION,
                () -> true,
                true,
                Duration.ofDays(7));
        executor.execute(refusing, work("k12", true, 0));

        assertEquals(
                1,
                count(
                        "SELECT count(*) FROM request_result WHERE request_key = ? AND expires_at >"
                                + " DATEADD(DAY, 7, created_at) AND expires_at < DATEADD(HOUR, 170, created_at)",
                        "k12"));
    }

    /**
     * The canonical text can be as long as the body, which the application holds while it runs: the core keeps the
     * canonical request only while it claims the key, and no longer once the work runs.
     */
    @Test
    void theCanonicalRequestIsNoLongerHeldWhileTheWorkRuns() throws Exception {
        List<WeakReference<CanonicalRequest>> made = new CopyOnWriteArrayList<>();
        Attempt attempt = new Attempt(
                new RequestResultId("alice", "debit:v1", "k13"),
                () -> {
                    CanonicalRequest request = new CanonicalRequest("{\"body\":{\"json\":{\"amount\":100}}}");
                    made.add(new WeakReference<>(request));
                    return request;
                },
                RETENTION,
                () -> true);
        AtomicBoolean heldWhileRunning = new AtomicBoolean(true);

        Decision<String> decision = executor.execute(attempt, () -> {
            heldWhileRunning.set(!collected(made.get(0)));
            return work("k13", true, 0).run();
        });

        assertInstanceOf(Decision.Executed.class, decision);
        assertEquals(1, made.size(), "made once, for the one claim");
        assertFalse(heldWhileRunning.get(), "the canonical request was still reachable while the work ran");
    }

    /** Whether the referent is gone after collections: the JVM clears weak references to what is unreachable. */
    private static boolean collected(WeakReference<?> reference) {
        for (int i = 0; i < 20 && reference.get() != null; i++) {
            System.gc();
            sleep(10);
        }
        return reference.get() == null;
    }

    private static Attempt rejecting(String key) {
        return new Attempt(
                new RequestResultId("alice", "debit:v1", key),
                () -> new CanonicalRequest("{\"body\":{\"json\":{\"amount\":100}}}"),
                RETENTION,
                () -> true,
                false,
                Duration.ZERO);
    }

    @Test
    void aDrainLookUpReplaysARecordAndFindsNoneForANewKey() throws Exception {
        executor.execute(attempt("k9", "100"), work("k9", true, 0));

        assertInstanceOf(Decision.Replayed.class, executor.lookUp(attempt("k9", "100")));
        assertInstanceOf(Decision.Mismatched.class, executor.lookUp(attempt("k9", "7")));
        assertInstanceOf(Decision.NotRecorded.class, executor.lookUp(attempt("new", "100")));
    }

    @Test
    void aStoreThatCannotBeReachedFailsBeforeAnythingRuns() throws Exception {
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE request_result");
        }

        Decision<String> decision = executor.execute(attempt("k10", "100"), work("k10", true, 0));

        assertEquals(
                Decision.Failure.STORE_UNAVAILABLE,
                assertInstanceOf(Decision.Failed.class, decision).failure());
        assertEquals(0, runs.get());
    }

    @Test
    void aRecordSealedUnderAKeyNoLongerConfiguredIsNeitherReplayedNorRunAgain() throws Exception {
        IdempotentExecutor sealing = executor(Duration.ofSeconds(5), keys("old=" + "A".repeat(43) + "="));
        sealing.execute(attempt("k11", "100"), work("k11", true, 0));
        IdempotentExecutor rotatedAway = executor(Duration.ofSeconds(5), keys("new=" + "B".repeat(43) + "="));

        Decision<String> decision = rotatedAway.execute(attempt("k11", "100"), work("k11", true, 0));

        assertEquals(
                Decision.Failure.RECORD_UNREADABLE,
                assertInstanceOf(Decision.Failed.class, decision).failure());
        assertEquals(1, runs.get());
    }

    private static EncryptionKeys keys(String setting) {
        return SettingsParser.parse(
                        Map.of("operations", "POST /debits = debit:v1 encrypted", "encryption-keys", setting))
                .encryptionKeys();
    }

    /** The application's work that, once it has written its row, holds its transaction until the gate opens. */
    private IdempotentExecutor.Work<String, SQLException> heldWork(String key, Gate gate) {
        IdempotentExecutor.Work<String, SQLException> work = work(key, true, 0);
        return () -> {
            IdempotentExecutor.Ran<String> ran = work.run();
            gate.holdUntilOpen();
            return ran;
        };
    }

    /** Orders two attempts without sleeping: the first holds inside its work until the test opens the gate. */
    private static final class Gate {
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch open = new CountDownLatch(1);

        void holdUntilOpen() {
            reached.countDown();
            try {
                if (!open.await(1, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("the test never opened the gate");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void awaitReached() throws InterruptedException {
            assertTrue(reached.await(1, TimeUnit.MINUTES), "the first attempt never reached its work");
        }

        void open() {
            open.countDown();
        }
    }

    /** Waits until the thread is parked: a duplicate waiting for the key, seen from outside, never timed. */
    private static void awaitWaiting(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the duplicate never waited");
            Thread.sleep(1);
        }
    }

    private static Decision<String> executeQuietly(
            IdempotentExecutor executor, Attempt attempt, IdempotentExecutor.Work<String, SQLException> work) {
        try {
            return executor.execute(attempt, work);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = transactions.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private long effects(String key) throws SQLException {
        return count("SELECT count(*) FROM effect WHERE k = ?", key);
    }

    private long records(String key) throws SQLException {
        return count("SELECT count(*) FROM request_result WHERE request_key = ?", key);
    }

    private long count(String sql, String key) throws SQLException {
        try (Connection connection = transactions.getConnection();
                PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, key);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
