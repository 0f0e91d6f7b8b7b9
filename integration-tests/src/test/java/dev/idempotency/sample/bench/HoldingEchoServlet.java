package dev.idempotency.sample.bench;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Benchmark-only: {@code POST /bench-echo} reads the whole body, writes {@code X-Response-Bytes} bytes of
 * response, then holds the request for {@code X-Hold-Millis}, so the memory benchmark can count what many
 * such requests hold at once; with {@code X-Sample-After-Millis}, a thread of its own samples the memory
 * that long after the first request arrived. {@code GET /bench-echo} collects garbage and answers, in bytes,
 * the live heap, the process's resident set and how many requests it holds now ({@code heap rss holding}),
 * and on a second line the last sample taken while requests were held.
 */
@WebServlet("/bench-echo")
public class HoldingEchoServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final AtomicInteger HOLDING = new AtomicInteger();
    /** Taken by a thread of its own while requests are held: the server's workers may all be holding. */
    private static volatile String sampleWhileHolding = "none";

    private static final AtomicBoolean SAMPLER_STARTED = new AtomicBoolean();

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.getInputStream().readAllBytes();
        byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte) 'x');
        long remaining = Long.parseLong(request.getHeader("X-Response-Bytes"));
        response.setContentType("application/octet-stream");
        OutputStream out = response.getOutputStream();
        while (remaining > 0) {
            int n = (int) Math.min(chunk.length, remaining);
            out.write(chunk, 0, n);
            remaining -= n;
        }
        HOLDING.incrementAndGet();
        String sampleAfter = request.getHeader("X-Sample-After-Millis");
        if (sampleAfter != null && SAMPLER_STARTED.compareAndSet(false, true)) {
            Thread sampler = new Thread(() -> {
                try {
                    Thread.sleep(Long.parseLong(sampleAfter));
                    sampleWhileHolding = sample();
                } catch (InterruptedException | IOException e) {
                    sampleWhileHolding = e.toString();
                } finally {
                    SAMPLER_STARTED.set(false);
                }
            });
            sampler.setDaemon(true);
            sampler.start();
        }
        try {
            Thread.sleep(Long.parseLong(request.getHeader("X-Hold-Millis")));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            HOLDING.decrementAndGet();
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().write(sample() + "\n" + sampleWhileHolding);
    }

    private static String sample() throws IOException {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long rss = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(line -> line.startsWith("VmRSS:"))
                .mapToLong(line -> Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024)
                .findFirst()
                .orElse(-1);
        return heap + " " + rss + " " + HOLDING.get();
    }
}
