package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** What goes over the socket, byte for byte, and how the connection ends: with a reset, not a close. */
class LostResponseSenderTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private ServerSocket listener;

    @BeforeEach
    void listen() throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        listener.setSoTimeout(Math.toIntExact(TIMEOUT.toMillis()));
    }

    @AfterEach
    void stopListening() throws IOException {
        listener.close();
    }

    /** What the server side saw: the whole request, and how its read after the first response byte ended. */
    private record Seen(String request, String ending) {}

    @Test
    void sendsTheWholeRequestThenResetsTheConnectionOnTheFirstResponseByte() throws Exception {
        CompletableFuture<Seen> server = CompletableFuture.supplyAsync(() -> acceptAndAnswer(true));
        RequestTemplate debit = RequestTemplate.post(URI.create(
                        "http://127.0.0.1:" + listener.getLocalPort() + "/sample/api/accounts/7/debits?dry=no"))
                .basicAuth("alice", "alice")
                .header("Content-Type", "application/json")
                .body("{\"amount\": 100, \"memo\": \"caf\u00e9\"}");

        new LostResponseSender(TIMEOUT).send(debit, "Idempotency-Key", "key-1");

        Seen seen = server.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        assertEquals(
                "POST /sample/api/accounts/7/debits?dry=no HTTP/1.1\r\n"
                        + "Host: 127.0.0.1:" + listener.getLocalPort() + "\r\n"
                        + "Authorization: Basic YWxpY2U6YWxpY2U=\r\n"
                        + "Content-Type: application/json\r\n"
                        + "Idempotency-Key: key-1\r\n"
                        + "Content-Length: 32\r\n"
                        + "Connection: close\r\n"
                        + "\r\n"
                        + "{\"amount\": 100, \"memo\": \"caf\u00e9\"}",
                seen.request());
        assertEquals("reset", seen.ending());
    }

    @Test
    void failsWhenTheServerClosesWithoutAnsweringBecauseThenNoResponseWasLost() {
        CompletableFuture<Seen> server = CompletableFuture.supplyAsync(() -> acceptAndAnswer(false));
        RequestTemplate request =
                RequestTemplate.post(URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/debits"));

        AssertionFailedError failure = assertThrows(AssertionFailedError.class, () -> new LostResponseSender(TIMEOUT)
                .send(request, "Idempotency-Key", "key-2"));

        assertEquals(
                "POST http://127.0.0.1:" + listener.getLocalPort() + "/debits with key key-2: the server closed the"
                        + " connection without a response",
                failure.getMessage());
        server.join();
    }

    @Test
    void hostHeaderLeavesOutTheDefaultPortAndAnEmptyPathIsSlash() {
        byte[] encoded = LostResponseSender.encode(
                RequestTemplate.post(URI.create("http://shop.example")), "X-Request-Key", "k");

        assertEquals(
                "POST / HTTP/1.1\r\nHost: shop.example\r\nX-Request-Key: k\r\nContent-Length: 0\r\n"
                        + "Connection: close\r\n\r\n",
                new String(encoded, StandardCharsets.US_ASCII));
    }

    /** Reads one request; then either answers one line and reads on, or closes without a word. */
    private Seen acceptAndAnswer(boolean answer) {
        try (Socket connection = listener.accept()) {
            connection.setSoTimeout(Math.toIntExact(TIMEOUT.toMillis()));
            InputStream in = connection.getInputStream();
            String request = readRequest(in);
            if (!answer) {
                return new Seen(request, "closed by the server");
            }
            connection.getOutputStream().write("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
            connection.getOutputStream().flush();
            try {
                return new Seen(request, in.read() == -1 ? "orderly close" : "more bytes");
            } catch (SocketException e) {
                return new Seen(request, e.getMessage().contains("reset") ? "reset" : e.getMessage());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            head.write(in.read());
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = text.lines()
                .filter(line -> line.startsWith("Content-Length: "))
                .mapToInt(line -> Integer.parseInt(line.substring("Content-Length: ".length())))
                .findFirst()
                .orElse(0);
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
