package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;

/**
 * A TCP proxy on loopback between a test client and WildFly that breaks connections on purpose. Each
 * connection gets the fault armed when it was accepted:
 *
 * <ul>
 *   <li>{@link Fault#NONE}: bytes flow both ways untouched;
 *   <li>{@link Fault#DROP_RESPONSE}: the whole request reaches the server, and the connection is reset as soon
 *       as the server starts answering: the server did the work, the client never learns the outcome;
 *   <li>{@link Fault#CUT_REQUEST}: only the first {@value #CUT_AFTER_BYTES} bytes of the request reach the
 *       server, then both sides are closed: the request never completes.
 * </ul>
 */
public final class FaultProxy implements AutoCloseable {
    public enum Fault {
        NONE,
        DROP_RESPONSE,
        CUT_REQUEST
    }

    static final int CUT_AFTER_BYTES = 200;

    private final ServerSocket listener;
    private final int targetPort;
    private volatile Fault fault = Fault.NONE;

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
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }

    private void acceptConnections() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Fault armed = fault;
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
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
