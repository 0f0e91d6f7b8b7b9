package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.SampleContainerTest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Test;

/**
 * The idempotent consumer on a real broker (WildFly's ActiveMQ Artemis) and PostgreSQL 18.6: credit events
 * go through the sample's queues to message-driven beans that record processed_message rows in their own
 * transaction.
 */
@RunAsClient
class ConsumerIT extends SampleContainerTest {
    /** The chapter's message id. */
    private static final String CHAPTER_MESSAGE = "00000000-0000-4000-8000-000000000001";

    /** How long to watch for an effect that must not happen, such as a second credit. */
    private static final long QUIET_MILLIS = 2_000;

    @Test
    void chaptersMessageCreditsFiftyOnceAndARedeliveryChangesNothing() throws Exception {
        Api api = new Api(base);
        long before = Database.balance(1);

        assertEquals(202, credit(api, 1, CHAPTER_MESSAGE, 50).statusCode());
        awaitEquals(before + 50, () -> Database.balance(1));
        assertEquals(202, credit(api, 1, CHAPTER_MESSAGE, 50).statusCode()); // the redelivery
        Thread.sleep(QUIET_MILLIS);

        assertEquals(before + 50, Database.balance(1));
        assertEquals(1, processedCount("balance-projection", CHAPTER_MESSAGE));
        assertEquals(1, ledgerLines(CHAPTER_MESSAGE));
    }

    @Test
    void handlerThatFailsAfterWritingIsRolledBackRedeliveredAndAppliedExactlyOnce() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String messageId = UUID.randomUUID().toString();

        HttpResponse<String> sent = api.post(
                "alice",
                "api/test/accounts/" + account + "/failing-credits",
                null,
                "{\"messageId\": \"" + messageId + "\", \"amount\": 50}");

        assertEquals(204, sent.statusCode(), sent.body());
        awaitEquals(1050, () -> Database.balance(account));
        Thread.sleep(QUIET_MILLIS);
        assertEquals(1050, Database.balance(account));
        assertEquals(1, processedCount("failing-projection", messageId));
    }

    @Test
    void twoSubscribersEachApplyOneMessageOnce() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String messageId = UUID.randomUUID().toString();

        credit(api, account, messageId, 50);

        awaitEquals(1050, () -> Database.balance(account));
        awaitEquals(1, () -> ledgerLines(messageId));
        assertEquals(1, processedCount("balance-projection", messageId));
        assertEquals(1, processedCount("credit-ledger", messageId));
    }

    @Test
    void sameIdWithADifferentAmountIsRejectedAndLoggedAndTheBalanceIsUnchanged() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String messageId = UUID.randomUUID().toString();
        credit(api, account, messageId, 50);
        awaitEquals(1050, () -> Database.balance(account));

        credit(api, account, messageId, 70);

        awaitEquals(1, () -> serverLogMentions(messageId + " with a different payload") ? 1 : 0);
        Thread.sleep(QUIET_MILLIS);
        assertEquals(1050, Database.balance(account));
        assertEquals(1, processedCount("balance-projection", messageId));
    }

    @Test
    void twoHundredMessagesWithFiftyDuplicateIdsCreditOncePerDistinctId() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            ids.add(UUID.randomUUID().toString());
        }
        List<String> messages = new ArrayList<>(ids);
        messages.addAll(ids.subList(0, 50));
        Collections.shuffle(messages);

        ExecutorService senders = Executors.newFixedThreadPool(8);
        try {
            List<Future<HttpResponse<String>>> sent = new ArrayList<>();
            for (String id : messages) {
                sent.add(senders.submit(() -> credit(api, account, id, 10)));
            }
            for (Future<HttpResponse<String>> response : sent) {
                assertEquals(202, response.get().statusCode());
            }
        } finally {
            senders.shutdown();
        }

        awaitEquals(1 + 150 * 10, () -> Database.balance(account));
        awaitEquals(150, () -> Database.count("SELECT count(*) FROM credit_ledger WHERE account_id = " + account));
        Thread.sleep(QUIET_MILLIS);
        assertEquals(1 + 150 * 10, Database.balance(account));
        assertEquals(150, Database.count("SELECT count(*) FROM credit_ledger WHERE account_id = " + account));
    }

    @Test
    void purgeDeletesOnlyRecordsOlderThanTheRetentionInBoundedBatches() throws Exception {
        String old = "purge-test-" + UUID.randomUUID();
        for (int i = 0; i < 3; i++) {
            Database.execute("INSERT INTO processed_message (subscriber, message_id, processed_at) VALUES"
                    + " ('purge-test', '" + old + "-" + i + "', now() - interval '2 hours')");
        }
        String recent = "purge-test-" + UUID.randomUUID();
        Database.execute("INSERT INTO processed_message (subscriber, message_id, processed_at) VALUES"
                + " ('purge-test', '" + recent + "', now())");
        Api api = new Api(base);

        List<String> purged = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
            purged.add(api.post("alice", "api/test/processed-messages/purge?retention=PT1H&batch=2", null, "")
                    .body());
        }

        assertEquals(List.of("2", "1", "0"), purged);
        assertEquals(1, Database.count("SELECT count(*) FROM processed_message WHERE subscriber = 'purge-test'"));
        assertEquals(1, processedCount("purge-test", recent));
    }

    private static HttpResponse<String> credit(Api api, long account, String messageId, long amount) {
        return api.post(
                "alice",
                "api/accounts/" + account + "/credits",
                null,
                "{\"messageId\": \"" + messageId + "\", \"amount\": " + amount + "}");
    }

    private static long processedCount(String subscriber, String messageId) {
        return Database.count("SELECT count(*) FROM processed_message WHERE subscriber = '" + subscriber
                + "' AND message_id = '" + messageId + "'");
    }

    private static long ledgerLines(String messageId) {
        return Database.count("SELECT count(*) FROM credit_ledger WHERE message_id = '" + messageId + "'");
    }

    private static boolean serverLogMentions(String text) {
        try {
            Path log = Path.of(System.getProperty("jboss.home"), "standalone", "log", "server.log");
            return Files.readString(log).contains(text);
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Messages are consumed asynchronously: wait up to 30 s for the expected value. */
    private static void awaitEquals(long expected, LongSupplier actual) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        long seen = actual.getAsLong();
        while (seen != expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            seen = actual.getAsLong();
        }
        assertEquals(expected, seen, "waited 30 s");
    }
}
