package dev.idempotency.sample.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 that holds every chunk it forwards for half a round-trip time in each direction: the
 * database one network hop away, on a machine that has no second host and no {@code netem}. A protocol that
 * waits for each answer (JDBC does) pays the whole delay once per round trip. Each connection gets one thread per
 * direction; a chunk is written after {@code oneWayNanos} from the moment it was read, so a round trip costs the
 * configured delay plus the sleep's overshoot, which {@link HopBenchmark} measures and prints rather than assumes.
 */
final class DelayingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final long oneWayNanos;
    private final AtomicLong chunksToTarget = new AtomicLong();

    /** Starts forwarding to {@code targetPort}, adding {@code roundTripMicros} to every round trip. */
    DelayingProxy(int targetPort, long roundTripMicros) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort;
        this.oneWayNanos = roundTripMicros * 1_000 / 2;
        Thread acceptor = new Thread(this::accept, "delaying-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /**
     * Chunks forwarded towards the target so far: a JDBC driver writes each statement, or each batch of
     * statements it sends together, in one go, so the difference over some requests counts their round trips.
     */
    long chunksToTarget() {
        return chunksToTarget.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                pump(client, server, true);
                pump(server, client, false);
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void pump(Socket from, Socket to, boolean towardsTarget) {
        Thread pump = new Thread(
                () -> {
                    byte[] buffer = new byte[64 * 1024];
                    try (InputStream in = from.getInputStream();
                            OutputStream out = to.getOutputStream()) {
                        for (int read; (read = in.read(buffer)) >= 0; ) {
                            if (towardsTarget) {
                                chunksToTarget.incrementAndGet();
                            }
                            long due = System.nanoTime() + oneWayNanos;
                            for (long left; (left = due - System.nanoTime()) > 0; ) {
                                LockSupport.parkNanos(left);
                            }
                            out.write(buffer, 0, read);
                            out.flush();
                        }
                    } catch (IOException e) {
                        // One side closed: close the other too.
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "delaying-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
