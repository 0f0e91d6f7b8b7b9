package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.FaultProxy;
import dev.idempotency.sample.support.SampleContainerTest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real failures between the client, the server and the database, and what a retry with the same key gets.
 * The network faults come from {@link FaultProxy}; the database fault from {@code pg_terminate_backend}.
 */
@RunAsClient
class FaultsIT extends SampleContainerTest {
    FaultProxy proxy;
    Api api;
    long account;
    String key;

    @BeforeEach
    void proxyAccountAndKey() {
        proxy = new FaultProxy(base.getPort());
        api = new Api(base);
        account = api.openAccount("alice", 1000);
        key = UUID.randomUUID().toString();
    }

    @AfterEach
    void closeProxy() throws IOException {
        proxy.close();
    }

    @Test
    void responseLostAfterTheCommitIsReplayedOnRetryAndDebitedOnce() throws Exception {
        proxy.arm(FaultProxy.Fault.DROP_RESPONSE);

        assertThrows(IOException.class, () -> Api.sendOnNewConnection(debitThroughProxy(memo(10))));

        HttpResponse<String> retry = api.post("alice", debits(), key, body(memo(10)));
        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals("true", retry.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals("{\"balance\":900}", retry.body());
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCountForKey(key));
    }

    @Test
    void connectionCutMidRequestExecutesOnceOnRetry() throws Exception {
        proxy.arm(FaultProxy.Fault.CUT_REQUEST);

        assertThrows(IOException.class, () -> Api.sendOnNewConnection(debitThroughProxy(memo(2000))));

        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCountForKey(key));
        assertEquals(0, Database.sessionsIdleInTransaction());
        HttpResponse<String> retry = api.post("alice", debits(), key, body(memo(2000)));
        assertEquals(200, retry.statusCode(), retry.body());
        assertTrue(retry.headers().firstValue("Idempotent-Replayed").isEmpty(), "it executed");
        HttpResponse<String> again = api.post("alice", debits(), key, body(memo(2000)));
        assertEquals("true", again.headers().firstValue("Idempotent-Replayed").orElseThrow());
        assertEquals(900, Database.balance(account));
    }

    /**
     * The client sends half of the declared body and then closes its side of the connection: the filter
     * answers 400 {@code request-body-incomplete} on the still open other side, with nothing claimed, no
     * transaction left open, and the key free for the whole request.
     */
    @Test
    void uploadAbortedMidBodyIsRefusedAndLeavesNoClaimAndNoOpenTransaction() throws Exception {
        byte[] whole = body(memo(2000)).getBytes(StandardCharsets.UTF_8);
        String credentials = Base64.getEncoder().encodeToString("alice:alice".getBytes(StandardCharsets.UTF_8));
        String answer;
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + base.getPath() + debits() + " HTTP/1.1\r\n"
                            + "Host: " + base.getHost() + ":" + base.getPort() + "\r\n"
                            + "Authorization: Basic " + credentials + "\r\n"
                            + "Content-Type: application/json\r\n"
                            + "Idempotency-Key: " + key + "\r\n"
                            + "Content-Length: " + whole.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(whole, 0, whole.length / 2);
            out.flush();
            socket.shutdownOutput();
            answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }

        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
        assertTrue(answer.contains("urn:dev.idempotency:problem:request-body-incomplete"), answer);
        assertEquals(0, Database.recordCountForKey(key));
        assertEquals(0, Database.sessionsIdleInTransaction());
        HttpResponse<String> retry = api.post("alice", debits(), key, body(memo(2000)));
        assertEquals(200, retry.statusCode(), retry.body());
        assertEquals(900, Database.balance(account));
    }

    @Test
    void backendTerminatedMidRequestPersistsNothingAndTheRetryExecutesOnce() throws Exception {
        String gate = UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> slow = Api.sendLater(api.gatedDebit(account, key, gate));
        api.awaitAtGate(gate, 1);
        // The request's backend, after the debit reached the database and while the application holds it.
        long terminated = Database.count("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE"
                + " state LIKE 'idle in transaction%' AND query LIKE 'update account%'");
        api.openGate(gate);

        HttpResponse<String> failed = slow.get();

        assertEquals(1, terminated, "the request's backend was found holding its transaction");
        assertEquals(503, failed.statusCode(), failed.body());
        assertEquals(
                "urn:dev.idempotency:problem:commit-failed",
                Api.json(failed).get("type").asText());
        assertFalse(failed.body().contains("{\"balance\":"), failed.body());
        assertEquals(1000, Database.balance(account));
        assertEquals(0, Database.recordCountForKey(key));

        HttpResponse<String> retry = Api.send(api.slowDebit(account, key, 0));
        assertEquals(200, retry.statusCode(), retry.body());
        assertTrue(retry.headers().firstValue("Idempotent-Replayed").isEmpty());
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCountForKey(key));
    }

    private HttpRequest debitThroughProxy(String memo) {
        Api throughProxy = new Api(proxy.through(base));
        return throughProxy
                .request("alice", debits())
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body(memo)))
                .build();
    }

    private String debits() {
        return "api/accounts/" + account + "/debits";
    }

    private static String memo(int length) {
        return "m".repeat(length);
    }

    private static String body(String memo) {
        return "{\"amount\": 100, \"memo\": \"" + memo + "\"}";
    }
}
