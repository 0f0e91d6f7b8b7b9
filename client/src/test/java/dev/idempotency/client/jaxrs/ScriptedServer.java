package dev.idempotency.client.jaxrs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * An HTTP/1.1 server on a plain socket, so that a test can do what a real network does to a caller: answer, or
 * read the request and close the connection without an answer (the answer lost after the server's commit).
 * One connection at a time, each closed after its exchange.
 */
final class ScriptedServer implements AutoCloseable {
    /** A request as the server read it; header names in lower case. */
    static final class Request {
        final String method;
        final String path;
        final Map<String, String> headers;
        final String body;

        Request(String method, String path, Map<String, String> headers, String body) {
            this.method = method;
            this.path = path;
            this.headers = headers;
            this.body = body;
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Cuts the connection without an answer. */
    static final String CUT = null;

    private final ServerSocket socket;
    private final Thread acceptor;
    private final Deque<Function<Request, String>> script = new ArrayDeque<>();
    final List<Request> received = new CopyOnWriteArrayList<>();

    ScriptedServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::serve, "scripted-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
    }

    /** The next exchange: an answer made from the request (see {@link #answer}), or {@link #CUT}. */
    synchronized ScriptedServer then(Function<Request, String> reply) {
        script.addLast(reply);
        return this;
    }

    static String answer(int status, String body, String... headerLines) {
        StringBuilder answer = new StringBuilder("HTTP/1.1 " + status + " Scripted\r\n");
        for (String line : headerLines) {
            answer.append(line).append("\r\n");
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return answer.append("Content-Type: text/plain\r\nContent-Length: ")
                .append(bytes.length)
                .append("\r\nConnection: close\r\n\r\n")
                .append(body)
                .toString();
    }

    private synchronized Function<Request, String> nextReply() {
        Function<Request, String> reply = script.pollFirst();
        return reply != null ? reply : request -> answer(500, "the script has ended");
    }

    private void serve() {
        while (!socket.isClosed()) {
            try (Socket connection = socket.accept()) {
                Request request = read(connection.getInputStream());
                received.add(request);
                String reply = nextReply().apply(request);
                if (reply != CUT) {
                    OutputStream out = connection.getOutputStream();
                    out.write(reply.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (SocketException closed) {
                return;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static Request read(InputStream in) throws IOException {
        String head = readHead(in);
        String[] lines = head.split("\r\n");
        String[] requestLine = lines[0].split(" ");
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim());
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        byte[] body = in.readNBytes(length);
        return new Request(requestLine[0], requestLine[1], headers, new String(body, StandardCharsets.UTF_8));
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int next = in.read();
            if (next < 0) {
                throw new SocketException("the client closed the connection");
            }
            head.write(next);
            matched = next == end[matched] ? matched + 1 : (next == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII).trim();
    }

    @Override
    public void close() throws IOException {
        // The acceptor, a daemon, ends on the closed socket.
        socket.close();
    }
}
