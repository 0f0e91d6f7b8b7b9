package dev.idempotency.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The JDK's HTTP server on an ephemeral loopback port, serving one fake endpoint. */
final class FakeServer implements AutoCloseable {
    static final String PATH = "/accounts/1/debits";

    private final HttpServer server;
    private final ExecutorService threads;

    private FakeServer(HttpServer server, ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    static FakeServer serving(HttpHandler endpoint) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            // A thread per request, so concurrent duplicates really overlap in the endpoint.
            ExecutorService threads = Executors.newCachedThreadPool();
            server.setExecutor(threads);
            server.createContext(PATH, endpoint);
            server.start();
            return new FakeServer(server, threads);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The endpoint's URI, with a query string, so the kit must send the whole request target. */
    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + PATH + "?source=kit");
    }

    static void respond(HttpExchange exchange, int status, String contentType, String body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        headers.forEach(exchange.getResponseHeaders()::set);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    static void problem(HttpExchange exchange, int status, String type) throws IOException {
        respond(
                exchange,
                status,
                FilterProtocol.PROBLEM_CONTENT_TYPE,
                "{\"type\":\"" + type + "\",\"title\":\"fake\",\"status\":" + status + "}",
                status == 409 ? Map.of("Retry-After", "1") : Map.of());
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
