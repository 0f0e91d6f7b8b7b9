package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.SampleContainerTest;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Concurrent duplicates race on the primary key: one executes, the others wait and replay. */
@Tag("core")
@RunAsClient
class ConcurrentDuplicatesIT extends SampleContainerTest {
    private static final int CLIENTS = 20;

    @Test
    void twentyConcurrentIdenticalRequestsDebitOnceAndAllGetTheSameBody() throws Exception {
        Api api = new Api(base);
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();

        int executed = Duplicates.debitAtOnce(CLIENTS, client -> api, account, key, "{\"balance\":900}");

        assertEquals(1, executed, "exactly one response comes from an execution, the rest are replays");
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCount("alice", "debit:v1", key));
    }
}
