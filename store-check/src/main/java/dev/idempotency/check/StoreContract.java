package dev.idempotency.check;

import dev.idempotency.RequestInProgressException;
import dev.idempotency.StoreException;
import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.dialect.SqlStatement;
import dev.idempotency.dialect.SqlStatement.Values;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.rollout.RolloutModes;
import dev.idempotency.store.ClaimOutcome;
import dev.idempotency.store.CounterStore;
import dev.idempotency.store.KeylessDay;
import dev.idempotency.store.KeylessDayStore;
import dev.idempotency.store.ProcessedMessageStore;
import dev.idempotency.store.RequestResultId;
import dev.idempotency.store.RequestResultStore;
import dev.idempotency.store.RolloutStore;
import dev.idempotency.store.StoredRecord;
import dev.idempotency.store.StoredResponse;
import dev.idempotency.tx.LocalTransactions;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The promises the filter's SQL must keep on an engine, each checked against the real database with real
 * concurrency on separate connections and local transactions: the claim, a duplicate that waits and then sees
 * the winner, the wait bound, a winner that rolls back, completion and replay, the statements a replay costs,
 * byte-wise key equality, the key check, expiry, purge, erasure, rollout switches, counters, and the consumer's
 * claim. It drives the filter's own store classes and dialect, so what passes here is what the filter runs.
 *
 * <p>Every row it writes is under this run's own names, which it deletes at the end, so it can run against
 * tables that already hold records. Not thread-safe: one run at a time.
 */
final class StoreContract implements AutoCloseable {
    /** One promise and how to check it. */
    record Check(String name, Body body) {
        interface Body {
            void run(StoreContract contract) throws Exception;
        }
    }

    /** A broken promise: the check's name and what was seen instead. */
    static final class Broken extends Exception {
        private static final long serialVersionUID = 1L;

        Broken(String message) {
            super(message);
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration RETENTION = Duration.ofHours(1);
    /** As many retries at once as made retries of a finished request refuse each other under reject. */
    private static final int RETRIES_AT_ONCE = 8;

    private final LocalTransactions transactions;
    private final SqlDialect dialect;
    private final RequestResultStore records;
    private final ProcessedMessageStore messages;
    private final CounterStore counters;
    private final KeylessDayStore keylessDays;
    /** Counts the statements {@link #records} runs. */
    private final StatementCounter statements = new StatementCounter();
    /** This run's prefix for every scope, subscriber and operation it writes. */
    private final String run = "store-check-" + UUID.randomUUID().toString().substring(0, 8);

    private final ExecutorService threads = Executors.newCachedThreadPool();

    StoreContract(LocalTransactions transactions, SqlDialect dialect) {
        this.transactions = transactions;
        this.dialect = dialect;
        this.records = new RequestResultStore(statements.counting(transactions), dialect);
        this.messages = new ProcessedMessageStore(transactions, dialect);
        this.counters = new CounterStore(transactions, dialect);
        this.keylessDays = new KeylessDayStore(transactions, dialect);
    }

    static List<Check> checks() {
        return List.of(
                new Check("a claim commits and a retry replays its response", StoreContract::claimThenReplay),
                new Check(
                        "a retry is one statement where the engine's claim returns a record committed before it",
                        StoreContract::replayCostsWhatTheDialectSays),
                new Check("a duplicate waits for the winner, then sees its record", StoreContract::duplicateWaits),
                new Check("a duplicate gives up at its wait bound", StoreContract::duplicateGivesUp),
                new Check(
                        "a duplicate that must not wait is refused while the winner runs, then replays",
                        StoreContract::duplicateRefusedWithoutWaiting),
                new Check(
                        "eight retries at once of a finished request, none waiting, are all answered with its record",
                        StoreContract::retriesAtOnceWithoutWaitingReplay),
                new Check(
                        "eight duplicates at once of an uncommitted claim, none waiting, are all refused",
                        StoreContract::duplicatesAtOnceWithoutWaitingRefused),
                new Check("a duplicate whose winner rolls back claims the key itself", StoreContract::winnerRollsBack),
                new Check("a rolled-back claim leaves nothing", StoreContract::rollbackLeavesNothing),
                new Check("ten concurrent claims of one key have one winner", StoreContract::tenClaimsOneWinner),
                new Check(
                        "keys compare byte by byte (case, trailing space, composed and decomposed)",
                        StoreContract::keysCompareByteByByte),
                new Check("the table refuses an empty key", StoreContract::emptyKeyRefused),
                new Check("a record expires one retention after its claim", StoreContract::expiry),
                new Check("the purge deletes expired records only", StoreContract::purge),
                new Check("erasure deletes one scope's records only", StoreContract::erasure),
                new Check("rollout switches are upserted and kept in the history", StoreContract::rollout),
                new Check("counters add up across flushes", StoreContract::countersAddUp),
                new Check(
                        "keyless days add up across flushes and are trimmed by day",
                        StoreContract::keylessDaysAddUpAndTrim),
                new Check("a message is recorded once", StoreContract::messageOnce),
                new Check(
                        "a concurrent redelivery waits for the first delivery, then sees it",
                        StoreContract::concurrentRedelivery),
                new Check(
                        "a redelivery whose first delivery rolls back records the message itself",
                        StoreContract::redeliveryAfterRollback));
    }

    // The checks

    private void claimThenReplay() throws Exception {
        String key = key();
        expect("claimed", claim(id(key), "first", true, WAIT), "the first claim");
        expect("existing first 200 done:" + key, claim(id(key), "first", true, WAIT), "the retry");
    }

    /**
     * The claim that also returns a record committed before it began ({@link
     * SqlDialect#claimReturningCommittedStatement}) answers a retry alone; elsewhere the claim finds the key taken
     * and a second statement reads the record. Both claims: the one that waits and the one that does not.
     */
    private void replayCostsWhatTheDialectSays() throws Exception {
        String key = key();
        expect("claimed", claim(id(key), "first", true, WAIT), "the first claim");
        for (Duration maxWait : List.of(WAIT, Duration.ZERO)) {
            SqlStatement claim = maxWait.isZero() ? dialect.claimWithoutWaitingStatement() : dialect.claimStatement();
            int expected = dialect.claimReturningCommittedStatement(claim).isPresent() ? 1 : 2;
            String[] answer = new String[1];
            int ran = statements.during(() -> answer[0] = claim(id(key), "first", true, maxWait));
            String retry = "the retry waiting at most " + maxWait;
            expect("existing first 200 done:" + key, answer[0], retry);
            if (ran != expected) {
                throw new Broken(retry + " ran " + ran + " statements, not " + expected);
            }
        }
    }

    /**
     * The winner holds its completed record uncommitted (past H2's own two-second lock timeout, so the store's
     * retries carry the wait there); a duplicate that answered before the winner went on to commit read what was not
     * committed.
     */
    private void duplicateWaits() throws Exception {
        String key = key();
        Gate gate = new Gate();
        Future<String> winner = later(() -> claim(id(key), "first", gate, 2_500, true, WAIT));
        gate.awaitReached();
        Future<String> duplicate = later(() -> gate.passedBy(claim(id(key), "first", Gate.OPEN, 0, true, WAIT)));
        gate.open();
        expect("existing first 200 done:" + key, get(duplicate), "the duplicate");
        expect("claimed", get(winner), "the winner");
    }

    /**
     * The winner stays at its gate until the duplicate has answered: a duplicate that outwaited its bound would
     * wait until the gate gave up, then find the key free and claim it.
     */
    private void duplicateGivesUp() throws Exception {
        String key = key();
        Gate gate = new Gate();
        Future<String> winner = later(() -> claim(id(key), "first", gate, 0, true, WAIT));
        gate.awaitReached();
        Future<String> duplicate = later(() -> claim(id(key), "first", Gate.OPEN, 0, true, Duration.ofSeconds(1)));
        try {
            expect("in-progress", get(duplicate), "the duplicate with a one-second bound");
        } finally {
            gate.open();
        }
        expect("claimed", get(winner), "the winner");
    }

    /**
     * {@code concurrent=reject}: refused while the winner still holds the key, at once where the engine has a claim
     * that skips a held key, within the shortest JDBC query timeout (one second) elsewhere.
     */
    private void duplicateRefusedWithoutWaiting() throws Exception {
        String key = key();
        Gate gate = new Gate();
        // Every claim of such an operation is made without waiting, the winner's too.
        Future<String> winner = later(() -> claim(id(key), "first", gate, 0, true, Duration.ZERO));
        gate.awaitReached();
        Future<String> refused = later(() -> claim(id(key), "first", Gate.OPEN, 0, true, Duration.ZERO));
        try {
            expect("in-progress", get(refused), "the duplicate that must not wait");
        } finally {
            gate.open();
        }
        expect("claimed", get(winner), "the winner");
        expect("existing first 200 done:" + key, claim(id(key), "first", true, Duration.ZERO), "the retry");
    }

    /**
     * {@code concurrent=reject} after the first request committed: eight retries claim at once, and each keeps its
     * transaction open, holding whatever its claim took, until all eight have their answer. A retry must not take
     * another retry for an execution in flight, on any node: all eight read the record. Where claims run one after
     * another ({@link SqlDialect#claimsOneAfterAnother()}), each ends its transaction at once, as the filter ends a
     * replay's, and the next one's claim waits for it.
     */
    private void retriesAtOnceWithoutWaitingReplay() throws Exception {
        String key = key();
        expect("claimed", claim(id(key), "first", true, Duration.ZERO), "the first claim");
        CountDownLatch answered = new CountDownLatch(dialect.claimsOneAfterAnother() ? 0 : RETRIES_AT_ONCE);
        for (String retry : atOnce(RETRIES_AT_ONCE, () -> claimHeldUntil(id(key), answered))) {
            expect("existing first 200 done:" + key, retry, "a retry among " + RETRIES_AT_ONCE + " at once");
        }
    }

    /**
     * {@code concurrent=reject} while the first claim is held uncommitted: eight duplicates claim at once, and each
     * is refused.
     */
    private void duplicatesAtOnceWithoutWaitingRefused() throws Exception {
        String key = key();
        CountDownLatch claimed = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<String> first = threads.submit(() -> {
            transactions.begin(Optional.empty());
            try {
                String outcome = describe(records.claim(id(key), "first", RETENTION, Duration.ZERO));
                claimed.countDown();
                await(release);
                records.complete(id(key), new StoredResponse(200, Map.of(), "done".getBytes(StandardCharsets.UTF_8)));
                transactions.commit();
                return outcome;
            } finally {
                transactions.rollback();
            }
        });
        await(claimed);
        List<String> duplicates;
        try {
            duplicates = atOnce(RETRIES_AT_ONCE, () -> claim(id(key), "first", true, Duration.ZERO));
        } finally {
            release.countDown();
        }
        for (String duplicate : duplicates) {
            expect("in-progress", duplicate, "a duplicate among " + RETRIES_AT_ONCE + " at once");
        }
        expect("claimed", get(first), "the first claim");
        expectRecords(1, key);
    }

    /** Claims without waiting, and keeps the transaction open until {@code answered} counted every claim. */
    private String claimHeldUntil(RequestResultId id, CountDownLatch answered) throws Exception {
        transactions.begin(Optional.empty());
        try {
            String outcome;
            try {
                outcome = describe(records.claim(id, "first", RETENTION, Duration.ZERO));
            } catch (RequestInProgressException e) {
                outcome = "in-progress";
            }
            answered.countDown();
            await(answered);
            return outcome;
        } finally {
            transactions.rollback();
        }
    }

    /** Runs {@code count} calls on as many threads, released together, and returns what each answered. */
    private List<String> atOnce(int count, Callable<String> call) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            calls.add(threads.submit(() -> {
                await(start);
                return call.call();
            }));
        }
        start.countDown();
        List<String> answers = new ArrayList<>();
        for (Future<String> each : calls) {
            answers.add(get(each));
        }
        return answers;
    }

    /** Bounded, so that an interleaving the engine cannot make fails the check instead of hanging it. */
    private static void await(CountDownLatch latch) throws InterruptedException {
        latch.await(30, TimeUnit.SECONDS);
    }

    private void winnerRollsBack() throws Exception {
        String key = key();
        Gate gate = new Gate();
        Future<String> winner = later(() -> claim(id(key), "first", gate, 1_500, false, WAIT));
        gate.awaitReached();
        Future<String> duplicate = later(() -> claim(id(key), "first", Gate.OPEN, 0, true, WAIT));
        gate.open();
        expect("claimed", get(winner), "the winner, which rolls back");
        expect("claimed", get(duplicate), "the duplicate");
        expectRecords(1, key);
    }

    private void rollbackLeavesNothing() throws Exception {
        String key = key();
        expect("claimed", claim(id(key), "first", false, WAIT), "the claim");
        expectRecords(0, key);
    }

    private void tenClaimsOneWinner() throws Exception {
        String key = key();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<String>> claims = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            claims.add(threads.submit(() -> {
                start.await();
                return claim(id(key), "same", Gate.OPEN, 100, true, WAIT);
            }));
        }
        start.countDown();
        int winners = 0;
        for (Future<String> claim : claims) {
            String outcome = get(claim);
            if (outcome.equals("claimed")) {
                winners++;
            } else {
                expect("existing same 200 done:" + key, outcome, "a duplicate");
            }
        }
        if (winners != 1) {
            throw new Broken(winners + " of ten concurrent claims won the key");
        }
    }

    private void keysCompareByteByByte() throws Exception {
        String prefix = key();
        int claimed = 0;
        for (String key : new String[] {"Key", "key", "key ", "k\u00e9y", "ke\u0301y"}) {
            if (dialect.refusedIdentityPart(prefix + key).isPresent()) {
                // SQL Server ignores trailing spaces in =: the store must refuse such a key, never merge it.
                try {
                    claim(id(prefix + key), "r", true, WAIT);
                } catch (StoreException refused) {
                    continue;
                }
                throw new Broken(
                        "the key '" + key + "', which " + dialect.name() + " cannot keep apart, was not" + " refused");
            }
            expect("claimed", claim(id(prefix + key), "r", true, WAIT), "the key '" + key + "'");
            claimed++;
        }
        expectRows(
                claimed,
                "SELECT count(*) FROM request_result WHERE scope = :scope AND request_key LIKE :prefix",
                Values.of().text("scope", run).text("prefix", prefix + "%"));
    }

    private void emptyKeyRefused() throws Exception {
        Values row = Values.of().text("scope", run).text("operation", "check:v1");
        row = dialect.withTime(dialect.withTime(row, "createdAt", Instant.now()), "expiresAt", Instant.now());
        try {
            execute(
                    "INSERT INTO request_result (scope, operation, request_key, request, created_at, expires_at)"
                            + " VALUES (:scope, :operation, '', 'r', :createdAt, :expiresAt)",
                    row);
        } catch (SQLException refused) {
            return;
        }
        throw new Broken("request_result took a row with an empty key; its key check is missing");
    }

    private void expiry() throws Exception {
        String key = key();
        Instant before = Instant.now();
        expect("claimed", claim(id(key), "r", true, WAIT), "the claim");
        Instant expiresAt = records.find(id(key)).orElseThrow().expiresAt();
        Instant expected = before.plus(RETENTION);
        if (Duration.between(expected, expiresAt).abs().compareTo(Duration.ofMinutes(5)) > 0) {
            throw new Broken("the record claimed at " + before + " with a retention of " + RETENTION + " expires at "
                    + expiresAt + "; the database clock or time zone is off");
        }
    }

    private void purge() throws Exception {
        String expired = key();
        String current = key();
        claim(id(expired), "r", true, WAIT);
        claim(id(current), "r", true, WAIT);
        execute(
                "UPDATE request_result SET expires_at = :expiresAt WHERE scope = :scope AND request_key = :key",
                dialect.withTime(Values.of(), "expiresAt", Instant.now().minus(Duration.ofDays(2)))
                        .text("scope", run)
                        .text("key", expired));
        int deleted = 0;
        for (SqlStatement purge : inTransaction(records::expiredRecordPurges)) {
            deleted += inTransaction(() -> records.purgeExpired(purge, 1000));
        }
        if (deleted < 1) {
            throw new Broken("the purge deleted nothing");
        }
        expectRecords(0, expired);
        expectRecords(1, current);
    }

    private void erasure() throws Exception {
        String erased = run + "-erased";
        String key = key();
        claim(new RequestResultId(erased, "check:v1", key), "r", true, WAIT);
        claim(id(key), "r", true, WAIT);
        int deleted = inTransaction(() -> records.deleteScope(erased));
        if (deleted != 1) {
            throw new Broken("erasing one scope deleted " + deleted + " records, not 1");
        }
        expectRecords(1, key);
    }

    /** The filter's own rollout writer and reader ({@link RolloutModes}), not a copy of their statements. */
    private void rollout() throws Exception {
        String operation = run + ":v1";
        RolloutModes modes = new RolloutModes(
                RolloutMode.OFF, Duration.ofHours(1), transactions, new RolloutStore(transactions, dialect));
        for (RolloutMode mode : new RolloutMode[] {RolloutMode.OPTIONAL, RolloutMode.REQUIRED}) {
            modes.change(operation, mode, "store-check");
        }
        RolloutModes.Setting read = modes.settingFor(operation);
        if (read.mode() != RolloutMode.REQUIRED || !"store-check".equals(read.changedBy())) {
            throw new Broken("the rollout read back " + read + " after switching to REQUIRED");
        }
        Values named = Values.of().text("operation", operation);
        expectRows(
                1,
                "SELECT count(*) FROM idempotency_rollout WHERE operation = :operation AND " + dialect.column("mode")
                        + " = 'REQUIRED'",
                named);
        expectRows(2, "SELECT count(*) FROM idempotency_rollout_history WHERE operation = :operation", named);
    }

    private void countersAddUp() throws Exception {
        CounterStore.Key key = new CounterStore.Key(run + ":v1", "EXECUTED", "", "");
        inTransaction(() -> {
            counters.add(Map.of(key, 3L));
            return null;
        });
        inTransaction(() -> {
            counters.add(Map.of(key, 4L));
            return null;
        });
        long total = counters.readAll().stream()
                .filter(value -> value.key().equals(key))
                .mapToLong(CounterStore.Value::count)
                .sum();
        if (total != 7) {
            throw new Broken("counts of 3 and 4 added up to " + total);
        }
    }

    /** On days of 1970, so that the trim can touch no real row of a database the check is run against. */
    private void keylessDaysAddUpAndTrim() throws Exception {
        String operation = run + ":v1";
        LocalDate second = LocalDate.parse("1970-01-02");
        LocalDate fifth = LocalDate.parse("1970-01-05");
        Instant morning = Instant.parse("1970-01-02T08:00:00Z");
        Instant noon = Instant.parse("1970-01-02T12:00:00Z");
        Instant evening = Instant.parse("1970-01-02T20:00:00Z");
        Instant fifthNoon = Instant.parse("1970-01-05T12:00:00Z");
        inTransaction(() -> {
            keylessDays.add(List.of(
                    new KeylessDay(operation, "bob", "okhttp", second, 3, 1, noon, noon),
                    new KeylessDay(operation, "bob", "okhttp", fifth, 1, 0, fifthNoon, fifthNoon)));
            return null;
        });
        inTransaction(() -> {
            keylessDays.add(List.of(new KeylessDay(operation, "bob", "okhttp", second, 2, 2, morning, evening)));
            return null;
        });
        List<KeylessDay> expected = List.of(
                new KeylessDay(operation, "bob", "okhttp", second, 5, 3, morning, evening),
                new KeylessDay(operation, "bob", "okhttp", fifth, 1, 0, fifthNoon, fifthNoon));
        List<KeylessDay> read = keylessDaysOf(operation);
        if (!read.equals(expected)) {
            throw new Broken("two flushes to one day read back as " + read + ", not " + expected);
        }
        inTransaction(() -> keylessDays.deleteBefore(LocalDate.parse("1970-01-03")));
        List<KeylessDay> trimmed = keylessDaysOf(operation);
        if (!trimmed.equals(expected.subList(1, 2))) {
            throw new Broken("trimming before 1970-01-03 left " + trimmed);
        }
    }

    private List<KeylessDay> keylessDaysOf(String operation) {
        return keylessDays.readSince(LocalDate.parse("1970-01-01")).stream()
                .filter(day -> day.operation().equals(operation))
                .collect(Collectors.toList());
    }

    private void messageOnce() throws Exception {
        String id = key();
        expect("first", message(id, "{}", Gate.OPEN, 0, true), "the first delivery");
        expect("redelivery {}", message(id, "{}", Gate.OPEN, 0, true), "the redelivery");
    }

    private void concurrentRedelivery() throws Exception {
        String id = key();
        Gate gate = new Gate();
        Future<String> first = later(() -> message(id, "{}", gate, 1_500, true));
        gate.awaitReached();
        Future<String> redelivery = later(() -> message(id, "{}", Gate.OPEN, 0, true));
        gate.open();
        expect("first", get(first), "the first delivery");
        expect("redelivery {}", get(redelivery), "the concurrent redelivery");
        expectRows(
                1,
                "SELECT count(*) FROM processed_message WHERE subscriber = :subscriber AND message_id = :id",
                Values.of().text("subscriber", run).text("id", id));
    }

    private void redeliveryAfterRollback() throws Exception {
        String id = key();
        Gate gate = new Gate();
        Future<String> first = later(() -> message(id, "{}", gate, 1_000, false));
        gate.awaitReached();
        Future<String> redelivery = later(() -> message(id, "{}", Gate.OPEN, 0, true));
        gate.open();
        expect("first", get(first), "the first delivery, which rolls back");
        expect("first", get(redelivery), "the redelivery");
    }

    // Each claim in a transaction of its own, as the filter makes them

    /**
     * Claims in a new transaction on this thread; when claimed, stores a response (to commit) and holds the key, at
     * the gate until it opens and then for {@code holdMillis}, then commits, or rolls back.
     *
     * @return {@code claimed}, {@code existing <request> <status> <body>} or {@code in-progress}
     */
    private String claim(RequestResultId id, String request, boolean commit, Duration maxWait) throws Exception {
        return claim(id, request, Gate.OPEN, 0, commit, maxWait);
    }

    private String claim(
            RequestResultId id, String request, Gate gate, long holdMillis, boolean commit, Duration maxWait)
            throws Exception {
        transactions.begin(Optional.empty());
        try {
            ClaimOutcome outcome = records.claim(id, request, RETENTION, maxWait);
            if (outcome instanceof ClaimOutcome.Existing) {
                return describe(outcome);
            }
            if (commit) {
                records.complete(
                        id,
                        new StoredResponse(
                                200, Map.of(), ("done:" + id.requestKey()).getBytes(StandardCharsets.UTF_8)));
            }
            gate.hold(holdMillis);
            if (commit) {
                transactions.commit();
            }
            return "claimed";
        } catch (RequestInProgressException e) {
            return "in-progress";
        } finally {
            gate.ended();
            transactions.rollback();
        }
    }

    /** @return {@code claimed}, or {@code existing <request> <status> <body>} */
    private static String describe(ClaimOutcome outcome) {
        if (outcome instanceof ClaimOutcome.Existing existing) {
            StoredRecord record = existing.record();
            return "existing " + record.request() + " " + record.response().status() + " "
                    + new String(record.response().body(), StandardCharsets.UTF_8);
        }
        return "claimed";
    }

    /** @return {@code first}, or {@code redelivery <stored payload>} */
    private String message(String id, String payload, Gate gate, long holdMillis, boolean commit) throws Exception {
        transactions.begin(Optional.empty());
        try {
            Optional<Optional<String>> stored = messages.claim(run, id, payload, "check", WAIT);
            if (stored.isPresent()) {
                return "redelivery " + stored.get().orElse("");
            }
            gate.hold(holdMillis);
            if (commit) {
                transactions.commit();
            }
            return "first";
        } finally {
            gate.ended();
            transactions.rollback();
        }
    }

    private <T> T inTransaction(Callable<T> work) throws Exception {
        return inTransaction(transactions, work);
    }

    /** Runs {@code work} in a transaction of its own, committed if it returns, rolled back if it throws. */
    static <T> T inTransaction(LocalTransactions transactions, Callable<T> work) throws Exception {
        return transactions.inTransaction(work::call);
    }

    // Plumbing

    private RequestResultId id(String key) {
        return new RequestResultId(run, "check:v1", key);
    }

    private static String key() {
        return UUID.randomUUID().toString();
    }

    /** Runs {@code work} on another thread, on a connection of its own. */
    private Future<String> later(Callable<String> work) {
        return CompletableFuture.supplyAsync(
                () -> {
                    try {
                        return work.call();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                },
                threads);
    }

    /**
     * Orders a winner and its duplicate without guessing at times: the winner, once it holds the key, waits at the
     * gate until the check has sent its duplicate and opens it; only then does it go on to commit or roll back.
     *
     * <p>Thread-safe.
     */
    private static final class Gate {
        /** Long enough for any check, short enough that a duplicate waiting past its bound is caught. */
        private static final long LIMIT_SECONDS = 60;

        /** A gate that holds no one. */
        static final Gate OPEN = new Gate();

        static {
            OPEN.open();
        }

        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch opened = new CountDownLatch(1);
        private volatile boolean held;
        private volatile boolean passed;

        /** Called by the winner holding the key: waits until the gate opens, then for {@code millis}, then passes. */
        void hold(long millis) throws InterruptedException {
            held = true;
            reached.countDown();
            if (!opened.await(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the check never let the winner go on");
            }
            Thread.sleep(millis);
            passed = true;
        }

        /** Called by the winner however it ends, so that a check never waits for a winner that failed to claim. */
        void ended() {
            reached.countDown();
        }

        void awaitReached() throws InterruptedException, Broken {
            if (!reached.await(LIMIT_SECONDS, TimeUnit.SECONDS) || !held) {
                throw new Broken("the winner never held the key");
            }
        }

        void open() {
            opened.countDown();
        }

        /** What a duplicate answered, marked when it came before the winner went on to commit. */
        String passedBy(String answer) {
            return passed ? answer : answer + " (before the winner committed)";
        }
    }

    private static String get(Future<String> future) throws Exception {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof IllegalStateException
                            && e.getCause().getCause() != null
                    ? e.getCause().getCause()
                    : e.getCause();
            throw new Broken("it failed: " + cause);
        }
    }

    private static void expect(String expected, String actual, String what) throws Broken {
        if (!expected.equals(actual)) {
            throw new Broken(what + " answered '" + actual + "', expected '" + expected + "'");
        }
    }

    private void expectRecords(long expected, String key) throws Exception {
        expectRows(
                expected,
                "SELECT count(*) FROM request_result WHERE scope = :scope AND request_key = :key",
                Values.of().text("scope", run).text("key", key));
    }

    private void expectRows(long expected, String sql, Values values) throws Exception {
        try (Connection connection = transactions.getConnection();
                PreparedStatement count = SqlStatement.of(sql).prepare(connection, values);
                ResultSet row = count.executeQuery()) {
            row.next();
            long actual = row.getLong(1);
            if (actual != expected) {
                throw new Broken("found " + actual + " rows where " + expected + " should be: " + sql);
            }
        }
    }

    private void execute(String sql, Values values) throws SQLException {
        try (Connection connection = transactions.getConnection();
                PreparedStatement statement = SqlStatement.of(sql).prepare(connection, values)) {
            statement.executeUpdate();
        }
    }

    /** Deletes every row this run wrote, so a run against real tables leaves them as they were. */
    void deleteWhatThisRunWrote() throws SQLException {
        String like = run + "%";
        for (String sql : new String[] {
            "DELETE FROM request_result WHERE scope LIKE :prefix",
            "DELETE FROM processed_message WHERE subscriber LIKE :prefix",
            "DELETE FROM idempotency_rollout WHERE operation LIKE :prefix",
            "DELETE FROM idempotency_rollout_history WHERE operation LIKE :prefix",
            "DELETE FROM idempotency_counter WHERE operation LIKE :prefix",
            "DELETE FROM idempotency_keyless_day WHERE operation LIKE :prefix"
        }) {
            try {
                execute(sql, Values.of().text("prefix", like));
            } catch (SQLException | StoreException e) {
                // A table that is missing or wrongly made has already failed its checks.
            }
        }
    }

    @Override
    public void close() {
        threads.shutdownNow();
    }
}
