package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.FaultProxy;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.PostgresPair;
import dev.idempotency.sample.support.PostgresPair.Replication;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The database fails over under the running sample: a PostgreSQL primary with a streaming standby ({@link
 * PostgresPair}), WildFly's {@code FailoverDS} listing both with {@code targetServerType=primary} and validating
 * connections when it hands them out. The primary is killed with {@code kill -9} and the standby promoted, as an
 * operator or Patroni would; retries through WildFly then reach the promoted standby.
 *
 * <p>With synchronous replication a commit returns only once the standby has flushed it, so a request whose
 * response was lost is replayed from the promoted standby, and nothing runs twice. With asynchronous replication
 * the last commits may not have reached the standby: they are lost, and since the record and the application's
 * debit are one transaction, they are lost together (a retry then runs once more, in the new history) or kept
 * together (a retry replays), never one without the other.
 *
 * <p>Each test needs a pair that has not failed over yet, so each after the first starts a new one on the same
 * two ports, which WildFly's datasource was given at boot.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class PostgresFailoverIT {
    private static final String FAILOVER_DATASOURCE = "java:jboss/datasources/FailoverDS";
    private static final long START_BALANCE = 1_000_000;
    private static final int CLIENTS = 4;
    /** The crash comes under traffic: after this many debits were answered, with the clients still sending. */
    private static final int ACKNOWLEDGED_BEFORE_THE_CRASH = 20;

    private static PostgresPair currentPair;

    @ArquillianResource
    URL base;

    /** The sample on {@code FailoverDS}, with its tables made by the test on the pair's primary. */
    @Deployment(testable = false)
    static WebArchive deployment() throws Exception {
        // Started before the deployment: the filter checks its table when the application starts.
        currentPair = startPair(Replication.SYNCHRONOUS);
        WebArchive war = SampleDeployment.onDataSource("sample-failover.war", FAILOVER_DATASOURCE);
        // SchemaInstaller writes to SampleDS, and the JMS consumers stay with the main deployment.
        war.delete("/WEB-INF/classes/dev/idempotency/sample/messaging");
        war.deleteClass(SchemaInstaller.class);
        return war;
    }

    @AfterAll
    static void stopPair() throws IOException {
        if (currentPair != null) {
            currentPair.close();
        }
    }

    @Test
    void synchronousStandbyReplaysAResponseLostWhenThePrimaryWasKilledRightAfterTheCommit() throws Exception {
        PostgresPair pair = pairReplicating(Replication.SYNCHRONOUS);
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        try (FaultProxy proxy = new FaultProxy(base.getPort())) {
            proxy.arm(FaultProxy.Fault.DROP_RESPONSE);
            // The proxy resets the connection when the answer starts, which is after the commit.
            assertThrows(
                    IOException.class,
                    () -> Api.sendOnNewConnection(debit(new Api(proxy.through(base)), account, key)));
        }

        long crash = System.nanoTime();
        pair.killPrimary();
        pair.promoteStandby();
        long promoted = System.nanoTime();
        HttpResponse<String> retry = retryUntilAnswered(debit(api, account, key));
        long answered = System.nanoTime();

        System.out.println("PostgresFailoverIT: kill -9 and promotion took " + millis(promoted - crash)
                + " ms; the retry was answered " + millis(answered - promoted) + " ms after the promotion");
        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElse(""), "replayed");
        assertEquals("{\"balance\":900}", retry.body());
        assertEquals(900, balance(pair.standby(), account), "debited once");
        assertEquals(1, records(pair.standby(), key));
    }

    @Test
    void asynchronousStandbyLosesTheLastCommitsRecordTogetherWithItsEffect() throws Exception {
        PostgresPair pair = pairReplicating(Replication.ASYNCHRONOUS);
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String kept = UUID.randomUUID().toString();
        String lost = UUID.randomUUID().toString();
        assertEquals("{\"balance\":900}", Api.send(debit(api, account, kept)).body());
        pair.awaitStandbyCaughtUp();
        pair.disconnectStandby();
        HttpResponse<String> acknowledged = Api.send(debit(api, account, lost));
        // The commit did not wait for the standby: the client has its 200.
        assertEquals(200, acknowledged.statusCode(), acknowledged.body());
        assertEquals("{\"balance\":800}", acknowledged.body());

        pair.killPrimary();
        pair.promoteStandby();

        DataSource survivor = pair.standby();
        assertEquals(1, records(survivor, kept), "the replicated commit's record");
        assertEquals(0, records(survivor, lost), "the last commit's record is lost");
        assertEquals(900, balance(survivor, account), "and its debit with it, never one without the other");
        HttpResponse<String> keptRetry = retryUntilAnswered(debit(api, account, kept));
        assertEquals(200, keptRetry.statusCode(), keptRetry.body());
        assertEquals(
                "true", keptRetry.headers().firstValue("Idempotent-Replayed").orElse(""), "replayed");
        assertEquals("{\"balance\":900}", keptRetry.body());
        HttpResponse<String> lostRetry = Api.send(debit(api, account, lost));
        assertEquals(200, lostRetry.statusCode(), lostRetry.body());
        assertTrue(lostRetry.headers().firstValue("Idempotent-Replayed").isEmpty(), "the lost debit runs again");
        assertEquals("{\"balance\":800}", lostRetry.body());
        assertEquals(800, balance(survivor, account));
        assertEquals(1, records(survivor, lost));
    }

    @Test
    void synchronousStandbyKeepsEveryAcknowledgedDebitWhenThePrimaryIsKilledUnderTraffic() throws Exception {
        Traffic traffic = crashUnderTraffic(Replication.SYNCHRONOUS);

        assertEquals(0, traffic.acknowledgedButLost(), "an acknowledged commit was lost");
        traffic.retriedKeysRunOnceInTheNewHistory();
    }

    @Test
    void asynchronousStandbyKeepsEachRecordWithItsEffectWhenThePrimaryIsKilledUnderTraffic() throws Exception {
        Traffic traffic = crashUnderTraffic(Replication.ASYNCHRONOUS);

        // How many acknowledged debits the standby had not yet received differs from run to run (none or a few on
        // one machine); each one that was lost went with its record, as the balances showed.
        System.out.println("PostgresFailoverIT: asynchronous replication lost " + traffic.acknowledgedButLost() + " of "
                + traffic.acknowledged.size() + " acknowledged debits");
        traffic.retriedKeysRunOnceInTheNewHistory();
    }

    /**
     * Clients debit their own accounts in a loop, each debit with a new key, until the primary is killed among
     * them; then the standby is promoted. Checks that on the promoted standby each account's balance matches its
     * records, so no debit survived without its record and no record without its debit.
     */
    private Traffic crashUnderTraffic(Replication replication) throws Exception {
        PostgresPair pair = pairReplicating(replication);
        Api api = new Api(base);
        List<Long> accounts = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            accounts.add(api.openAccount("alice", START_BALANCE));
        }
        pair.awaitStandbyCaughtUp();
        Traffic traffic = new Traffic(api);
        AtomicBoolean crashed = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (long account : accounts) {
            running.add(clients.submit(() -> {
                while (!crashed.get()) {
                    traffic.debit(account);
                }
            }));
        }
        awaitAcknowledged(traffic, ACKNOWLEDGED_BEFORE_THE_CRASH);
        pair.killPrimary();
        crashed.set(true);
        for (Future<?> client : running) {
            client.get();
        }
        clients.shutdown();
        clients.awaitTermination(10, TimeUnit.SECONDS);
        pair.promoteStandby();
        traffic.readSurvivingRecords(pair.standby());

        for (long account : accounts) {
            assertEquals(
                    START_BALANCE - 100 * traffic.recordsOf(account),
                    balance(pair.standby(), account),
                    "account " + account + ": a debit without its record, or a record without its debit");
        }
        assertEquals(0, count(pair.standby(), "SELECT count(*) FROM request_result WHERE response_status IS NULL"));
        // A debit whose commit was under way at the crash may have reached the standby although its client got an
        // error (an in-doubt commit): its retry replays.
        System.out.println("PostgresFailoverIT: " + traffic.sent.size() + " debits sent, " + traffic.acknowledged.size()
                + " acknowledged before the " + replication.name().toLowerCase(Locale.ROOT) + " primary was killed, "
                + traffic.keptButNotAcknowledged() + " kept although their client got no 200");
        return traffic;
    }

    /** The debits the clients sent, and which of their records the promoted standby holds. */
    /** Waits for what the test can see (answered debits), never for a time; fails after a minute. */
    private static void awaitAcknowledged(Traffic traffic, int debits) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (traffic.acknowledged.size() < debits) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("only " + traffic.acknowledged.size() + " debits were answered");
            }
            Thread.sleep(10);
        }
    }

    private static final class Traffic {
        private final Api api;
        private final Map<String, Long> sent = new ConcurrentHashMap<>();
        private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        private DataSource survivor;
        private Set<String> surviving;

        Traffic(Api api) {
            this.api = api;
        }

        void debit(long account) {
            String key = UUID.randomUUID().toString();
            sent.put(key, account);
            try {
                if (Api.send(PostgresFailoverIT.debit(api, account, key)).statusCode() == 200) {
                    acknowledged.add(key);
                }
            } catch (RuntimeException e) {
                // The client's connection broke; the outcome is unknown, as for any client at a crash.
            }
        }

        void readSurvivingRecords(DataSource promoted) {
            survivor = promoted;
            surviving = debitKeys(promoted);
        }

        long recordsOf(long account) {
            return sent.entrySet().stream()
                    .filter(debit -> debit.getValue() == account && surviving.contains(debit.getKey()))
                    .count();
        }

        long keptButNotAcknowledged() {
            return surviving.stream()
                    .filter(key -> sent.containsKey(key) && !acknowledged.contains(key))
                    .count();
        }

        long acknowledgedButLost() {
            return acknowledged.stream().filter(key -> !surviving.contains(key)).count();
        }

        /** Every key sent, retried: a kept record replays, a lost or never committed one runs now, once. */
        void retriedKeysRunOnceInTheNewHistory() throws InterruptedException {
            Map<Long, Long> debits = new HashMap<>();
            for (Map.Entry<String, Long> debit : sent.entrySet()) {
                boolean kept = surviving.contains(debit.getKey());
                HttpResponse<String> retry =
                        retryUntilAnswered(PostgresFailoverIT.debit(api, debit.getValue(), debit.getKey()));
                assertEquals(200, retry.statusCode(), retry.body());
                assertEquals(
                        kept,
                        retry.headers().firstValue("Idempotent-Replayed").isPresent(),
                        "key " + debit.getKey() + (kept ? " was kept and must replay" : " was lost and must run"));
                debits.merge(debit.getValue(), 1L, Long::sum);
            }
            debits.forEach((account, count) -> assertEquals(START_BALANCE - 100 * count, balance(survivor, account)));
            assertTrue(debitKeys(survivor).containsAll(sent.keySet()), "a record for every key");
        }
    }

    private static Set<String> debitKeys(DataSource database) {
        String sql = "SELECT request_key FROM request_result WHERE operation = 'debit:v1'";
        try (Connection connection = database.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql);
                ResultSet rows = statement.executeQuery()) {
            Set<String> keys = new HashSet<>();
            while (rows.next()) {
                keys.add(rows.getString(1));
            }
            return keys;
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static PostgresPair pairReplicating(Replication replication) throws Exception {
        if (currentPair.failedOver()) {
            currentPair.close();
            currentPair = startPair(replication);
        } else {
            currentPair.replicate(replication);
        }
        return currentPair;
    }

    private static PostgresPair startPair(Replication replication) throws Exception {
        PostgresPair started = PostgresPair.start(port("pg.primary.port"), port("pg.standby.port"), replication);
        Database.installSampleTables(started.primary());
        return started;
    }

    /** The ports the build reserved and handed to WildFly's FailoverDS as well. */
    private static int port(String property) {
        String port = System.getProperty(property);
        if (port == null) {
            throw new IllegalStateException(property + " is not set; the build reserves it (integration-tests/pom.xml)"
                    + " and hands it to WildFly (arquillian.xml)");
        }
        return Integer.parseInt(port);
    }

    private static HttpRequest debit(Api api, long account, String key) {
        return api.request("alice", "api/accounts/" + account + "/debits")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": 100}"))
                .build();
    }

    /** A client's retry loop: a 5xx says a retry with the same key is safe. */
    private static HttpResponse<String> retryUntilAnswered(HttpRequest request) throws InterruptedException {
        HttpResponse<String> response = Api.send(request);
        for (int attempt = 0; attempt < 25 && response.statusCode() >= 500; attempt++) {
            Thread.sleep(200);
            response = Api.send(request);
        }
        return response;
    }

    private static long balance(DataSource database, long account) {
        return count(database, "SELECT balance FROM account WHERE id = ?", account);
    }

    private static long records(DataSource database, String key) {
        return count(database, "SELECT count(*) FROM request_result WHERE request_key = ?", key);
    }

    private static long count(DataSource database, String sql, Object... parameters) {
        try (Connection connection = database.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
