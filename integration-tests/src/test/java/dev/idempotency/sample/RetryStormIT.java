package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.FaultProxy;
import dev.idempotency.sample.support.SampleContainerTest;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.Test;

/**
 * The invariant test: a storm of debits from several principals over a small pool of keys each, with
 * concurrent duplicates, responses dropped on the way back (through {@link FaultProxy}), retries, and
 * mismatched reuses. Afterwards every key is settled with retries, and a checker proves that balances,
 * responses and records agree.
 *
 * <p>{@code -Dstorm.requests=N} sets the size (2,000 by default; see docs/failure-model.md for a large run).
 */
@RunAsClient
class RetryStormIT extends SampleContainerTest {
    private static final int REQUESTS = Integer.getInteger("storm.requests", 2_000);
    private static final int KEYS_PER_PRINCIPAL = 60;
    private static final long START_BALANCE = 1_000_000;

    /** One intent: a key bound for good to one account and amount. */
    private record Intent(String principal, long account, String key, long amount) {}

    private final Map<String, List<String>> successBodies = new ConcurrentHashMap<>();
    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger dropped = new AtomicInteger();
    private final AtomicInteger mismatches = new AtomicInteger();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();

    @Test
    void everyKeyExecutesOnceAndEveryResponseIsTheStoredOne() throws Exception {
        Api api = new Api(base);
        List<Intent> intents = new ArrayList<>();
        for (String principal : List.of("alice", "bob")) {
            long[] accounts = {api.openAccount(principal, START_BALANCE), api.openAccount(principal, START_BALANCE)};
            for (int k = 0; k < KEYS_PER_PRINCIPAL; k++) {
                intents.add(
                        new Intent(principal, accounts[k % 2], UUID.randomUUID().toString(), 1 + k % 9));
            }
        }

        try (FaultProxy dropping = new FaultProxy(base.getPort())) {
            dropping.arm(FaultProxy.Fault.DROP_RESPONSE);
            Api throughDroppingProxy = new Api(dropping.through(base));
            ExecutorService clients = Executors.newFixedThreadPool(8);
            List<Future<?>> work = new ArrayList<>();
            for (int worker = 0; worker < 8; worker++) {
                work.add(clients.submit(() -> {
                    while (sent.get() < REQUESTS) {
                        Intent intent = intents.get(ThreadLocalRandom.current().nextInt(intents.size()));
                        act(api, throughDroppingProxy, intent);
                    }
                    return null;
                }));
            }
            for (Future<?> done : work) {
                done.get();
            }
            clients.shutdown();
        }
        for (Intent intent : intents) {
            settle(api, intent);
        }

        assertEquals(List.of(), unexpected);
        for (long account :
                intents.stream().mapToLong(Intent::account).distinct().toArray()) {
            long debited = intents.stream()
                    .filter(i -> i.account() == account && Database.recordCountForKey(i.key()) == 1)
                    .mapToLong(Intent::amount)
                    .sum();
            assertEquals(START_BALANCE - debited, Database.balance(account), "account " + account);
        }
        for (Intent intent : intents) {
            String stored = Database.record(intent.principal(), "debit:v1", intent.key())
                    .orElseThrow()
                    .body();
            for (String body : successBodies.get(intent.key())) {
                assertEquals(stored, body, "a response for " + intent.key() + " differs from the stored one");
            }
        }
        System.out.printf(
                "retry storm: %d requests, %d responses dropped, %d mismatched reuses refused, %d keys%n",
                sent.get(), dropped.get(), mismatches.get(), intents.size());
    }

    private void act(Api api, Api throughDroppingProxy, Intent intent) throws Exception {
        int dice = ThreadLocalRandom.current().nextInt(100);
        if (dice < 10) {
            sent.incrementAndGet();
            try {
                record(intent, Api.sendOnNewConnection(debit(throughDroppingProxy, intent, intent.amount())));
            } catch (IOException lost) {
                dropped.incrementAndGet(); // the client does not know whether it happened: it will retry
            }
        } else if (dice < 15) {
            sent.addAndGet(2);
            ExecutorService pair = Executors.newFixedThreadPool(2);
            Future<HttpResponse<String>> first = pair.submit(() -> Api.send(debit(api, intent, intent.amount())));
            Future<HttpResponse<String>> second = pair.submit(() -> Api.send(debit(api, intent, intent.amount())));
            record(intent, first.get());
            record(intent, second.get());
            pair.shutdown();
        } else if (dice < 20 && successBodies.containsKey(intent.key())) {
            sent.incrementAndGet();
            HttpResponse<String> refused = Api.send(debit(api, intent, intent.amount() + 1000));
            if (refused.statusCode() == 422) {
                mismatches.incrementAndGet();
            } else {
                unexpected.add("mismatched reuse of " + intent.key() + " got " + refused.statusCode());
            }
        } else {
            sent.incrementAndGet();
            record(intent, Api.send(debit(api, intent, intent.amount())));
        }
    }

    /** A 200 is kept for the checker; 409 and 503 say "retry later"; anything else is a failure. */
    private void record(Intent intent, HttpResponse<String> response) {
        switch (response.statusCode()) {
            case 200 -> successBodies
                    .computeIfAbsent(intent.key(), k -> new CopyOnWriteArrayList<>())
                    .add(response.body());
            case 409, 503 -> {}
            default -> unexpected.add(intent.key() + " got " + response.statusCode() + " " + response.body());
        }
    }

    /** Retries an intent until it has a definite outcome, as a client that lost a response would. */
    private void settle(Api api, Intent intent) throws InterruptedException {
        for (int attempt = 0; attempt < 50; attempt++) {
            HttpResponse<String> response = Api.send(debit(api, intent, intent.amount()));
            record(intent, response);
            if (response.statusCode() == 200) {
                return;
            }
            Thread.sleep(100);
        }
        unexpected.add(intent.key() + " never settled");
    }

    private static HttpRequest debit(Api api, Intent intent, long amount) {
        return api.request(intent.principal(), "api/accounts/" + intent.account() + "/debits")
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", intent.key())
                .POST(HttpRequest.BodyPublishers.ofString("{\"amount\": " + amount + "}"))
                .build();
    }
}
