package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A TCP proxy on loopback between a test client and WildFly that breaks connections on purpose. Each
 * connection gets the fault armed when it was accepted:
 *
 * <ul>
 *   <li>{@link Fault#NONE}: bytes flow both ways untouched;
 *   <li>{@link Fault#DROP_RESPONSE}: the whole request reaches the server, and the connection is reset as soon
 *       as the server starts answering: the server did the work, the client never learns the outcome;
 *   <li>{@link Fault#CUT_REQUEST}: only the first {@value #CUT_AFTER_BYTES} bytes of the request reach the
 *       server, then both sides are closed: the request never completes;
 *   <li>{@link Fault#WITHHOLD_RESPONSE} (per request only): the whole request reaches the server, and nothing of
 *       its answer reaches the client, whose connection stays open until the client gives up and closes it.
 * </ul>
 *
 * <p>{@link #armEach} arms a fault per request instead, by the request's number, whatever connection carries it:
 * for clients that keep connections alive across calls (the JDK's {@code HttpURLConnection} does), so that a
 * fixed pattern applies to the same calls on every run. A request is told apart on its connection by its request
 * line ({@code POST /…}); requests are not pipelined, so the answer that follows belongs to it.
 */
public final class FaultProxy implements AutoCloseable {
    /** The matrix's pattern, counted in requests: every third answer is cut after the commit, every fifth other withheld. */
    public static final java.util.function.IntFunction<Fault> EVERY_THIRD_CUT_EVERY_FIFTH_WITHHELD =
            request -> request % 3 == 0 ? Fault.DROP_RESPONSE : request % 5 == 0 ? Fault.WITHHOLD_RESPONSE : Fault.NONE;

    /** What that pattern did to the first {@code requests} requests: {@code "(c answers cut, w withheld)"}. */
    public static String faultsOf(int requests) {
        int cut = 0;
        int withheld = 0;
        for (int n = 1; n <= requests; n++) {
            Fault fault = EVERY_THIRD_CUT_EVERY_FIFTH_WITHHELD.apply(n);
            cut += fault == Fault.DROP_RESPONSE ? 1 : 0;
            withheld += fault == Fault.WITHHOLD_RESPONSE ? 1 : 0;
        }
        return "(" + cut + " answers cut, " + withheld + " withheld)";
    }

    public enum Fault {
        NONE,
        DROP_RESPONSE,
        CUT_REQUEST,
        WITHHOLD_RESPONSE
    }

    /** The fault of the request a connection carries now, when faults are armed per request. */
    private static final class Exchange {
        volatile Fault fault = Fault.NONE;
    }

    static final int CUT_AFTER_BYTES = 200;

    private final ServerSocket listener;
    private final int targetPort;
    private volatile Fault fault = Fault.NONE;
    private volatile IntFunction<Fault> faultOfRequest;
    private final AtomicInteger requests = new AtomicInteger();

    public FaultProxy(int targetPort) {
        this.targetPort = targetPort;
        try {
            listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Thread acceptor = new Thread(this::acceptConnections, "fault-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The URL of {@code target} as seen through this proxy. */
    public URL through(URL target) {
        try {
            return new URL(target.getProtocol(), "127.0.0.1", listener.getLocalPort(), target.getFile());
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The fault for connections accepted from now on. */
    public void arm(Fault fault) {
        this.fault = fault;
        this.faultOfRequest = null;
    }

    /**
     * Faults by request from now on: the n-th request this proxy forwards (counting from 1) gets {@code
     * faultOfRequest.apply(n)}, {@link Fault#NONE}, {@link Fault#DROP_RESPONSE} or {@link Fault#WITHHOLD_RESPONSE}.
     */
    public void armEach(IntFunction<Fault> faultOfRequest) {
        requests.set(0);
        this.faultOfRequest = faultOfRequest;
    }

    /** How many requests were forwarded since {@link #armEach}. */
    public int requestsSeen() {
        return requests.get();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    private void acceptConnections() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                Fault armed = fault;
                if (armed == Fault.NONE) {
                    // A connection kept alive may carry requests made after a later armEach: each request's fault
                    // is looked up when its request line arrives.
                    Exchange exchange = new Exchange();
                    start(() -> forwardRequests(client, server, exchange));
                    start(() -> forwardResponses(server, client, exchange));
                    continue;
                }
                start(() -> forwardRequest(client, server, armed));
                start(() -> forwardResponse(server, client, armed));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void forwardRequest(Socket client, Socket server, Fault fault) {
        try (InputStream in = client.getInputStream()) {
            OutputStream out = server.getOutputStream();
            byte[] buffer = new byte[8192];
            long forwarded = 0;
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                if (fault == Fault.CUT_REQUEST && forwarded + n > CUT_AFTER_BYTES) {
                    out.write(buffer, 0, (int) (CUT_AFTER_BYTES - forwarded));
                    out.flush();
                    reset(client);
                    server.close();
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
                forwarded += n;
            }
        } catch (IOException ignored) {
            // The other direction closed the connection.
        }
    }

    private static void forwardResponse(Socket server, Socket client, Fault fault) {
        try (InputStream in = server.getInputStream()) {
            OutputStream out = client.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                if (fault == Fault.DROP_RESPONSE) {
                    reset(client);
                    server.close();
                    return;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
            client.close();
        } catch (IOException ignored) {
            // The other direction closed the connection.
        }
    }

    /** Forwards the requests on one connection, arming each one's fault as its request line arrives. */
    private void forwardRequests(Socket client, Socket server, Exchange exchange) {
        try (InputStream in = client.getInputStream()) {
            OutputStream out = server.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                IntFunction<Fault> perRequest = faultOfRequest;
                if (perRequest != null && startsRequestLine(buffer, n)) {
                    exchange.fault = perRequest.apply(requests.incrementAndGet());
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException ignored) {
            // The other direction closed the connection.
        } finally {
            // The client gave up (a withheld answer) or is done: nothing more goes to the server. Only where
            // faults are armed per request, so that a plain connection ends as it did before.
            if (faultOfRequest != null) {
                closeQuietly(server);
            }
        }
    }

    /** Forwards the answers on one connection, unless the request they answer was armed to lose its answer. */
    private static void forwardResponses(Socket server, Socket client, Exchange exchange) {
        try (InputStream in = server.getInputStream()) {
            OutputStream out = client.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                Fault armed = exchange.fault;
                if (armed == Fault.DROP_RESPONSE) {
                    reset(client);
                    server.close();
                    return;
                }
                if (armed != Fault.WITHHOLD_RESPONSE) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
            client.close();
        } catch (IOException ignored) {
            // The other direction closed the connection.
        }
    }

    /** Whether a read begins with a request line: a method in capitals, a space and a path. */
    private static boolean startsRequestLine(byte[] buffer, int length) {
        int i = 0;
        while (i < length && i < 10 && buffer[i] >= 'A' && buffer[i] <= 'Z') {
            i++;
        }
        return i > 0 && i + 1 < length && buffer[i] == ' ' && buffer[i + 1] == '/';
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }

    /** Closes with a TCP reset, as a dropped connection looks to the client. */
    private static void reset(Socket socket) throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    private static void start(Runnable task) {
        Thread thread = new Thread(task, "fault-proxy-connection");
        thread.setDaemon(true);
        thread.start();
    }
}
