package dev.idempotency.benchmarks;

import dev.idempotency.servlet.CapturedResponse;
import dev.idempotency.servlet.CapturingResponseWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Holding back a typical 1 KB JSON response: status, headers, body, then the captured copy. */
@State(Scope.Benchmark)
public class ResponseCaptureBenchmark {
    /** The real response is never touched while wrapped; a proxy that answers nothing proves it cheaply. */
    private final HttpServletResponse container = (HttpServletResponse) Proxy.newProxyInstance(
            HttpServletResponse.class.getClassLoader(),
            new Class<?>[] {HttpServletResponse.class},
            (proxy, method, args) -> {
                throw new IllegalStateException("the capture reached the container: " + method.getName());
            });

    private byte[] body;

    @Setup
    public void body() {
        body = JsonBodies.ofSize(1024).getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public CapturedResponse captureJsonResponse() throws IOException {
        CapturingResponseWrapper capture = new CapturingResponseWrapper(container, 1024 * 1024);
        capture.setStatus(200);
        capture.setContentType("application/json");
        capture.setHeader("Location", "/api/accounts/1/debits/42");
        capture.getOutputStream().write(body);
        capture.flushBuffer();
        return capture.captured();
    }
}
