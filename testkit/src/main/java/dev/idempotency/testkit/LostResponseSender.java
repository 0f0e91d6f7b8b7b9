package dev.idempotency.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends one request and loses its response, as a client does whose network path fails after the server
 * answered: the request goes out whole over a plain socket in HTTP/1.1, and as soon as the first byte of the
 * response arrives the connection is reset, with the rest unread. Plain {@code http} only: a TLS socket
 * would need the user's trust settings, and {@code java.net.http} cannot be stopped at the first byte.
 * Thread-safe.
 */
final class LostResponseSender {
    private final Duration timeout;

    LostResponseSender(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * Sends {@code request} with {@code key} in {@code keyHeader} and resets the connection on the response's
     * first byte.
     *
     * @throws org.opentest4j.AssertionFailedError if the server closes the connection without answering, or
     *     sends nothing within the timeout
     * @throws UncheckedIOException if the server cannot be reached or the request cannot be written
     */
    void send(RequestTemplate request, String keyHeader, String key) {
        URI uri = request.uri();
        int port = uri.getPort() == -1 ? 80 : uri.getPort();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), port), Math.toIntExact(timeout.toMillis()));
            socket.setSoTimeout(Math.toIntExact(timeout.toMillis()));
            OutputStream out = socket.getOutputStream();
            out.write(encode(request, keyHeader, key));
            out.flush();
            if (socket.getInputStream().read() == -1) {
                fail(request + " with key " + key + ": the server closed the connection without a response");
            }
            // Linger 0 makes close() send a TCP RST instead of a FIN: the client is gone, not merely done reading.
            socket.setSoLinger(true, 0);
        } catch (SocketTimeoutException e) {
            fail(request + " with key " + key + ": no response within " + timeout, e);
        } catch (IOException e) {
            throw new UncheckedIOException(request + " could not be sent over a socket: " + e, e);
        }
    }

    /** The request's bytes: the user's method, target, headers and body, plus Host, the key and the framing. */
    static byte[] encode(RequestTemplate request, String keyHeader, String key) {
        URI uri = request.uri();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        String host = uri.getPort() == -1 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        byte[] body = request.bodyBytes();

        StringBuilder head = new StringBuilder();
        head.append(request.method()).append(' ').append(target).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(host).append("\r\n");
        request.headers().forEach(header -> head.append(header.name())
                .append(": ")
                .append(header.value())
                .append("\r\n"));
        head.append(keyHeader).append(": ").append(key).append("\r\n");
        head.append("Content-Length: ").append(body.length).append("\r\n");
        head.append("Connection: close\r\n\r\n");

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head.toString().getBytes(StandardCharsets.US_ASCII));
        bytes.writeBytes(body);
        return bytes.toByteArray();
    }
}
