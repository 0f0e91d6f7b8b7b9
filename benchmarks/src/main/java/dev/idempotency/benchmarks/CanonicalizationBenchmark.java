package dev.idempotency.benchmarks;

import dev.idempotency.canonical.CanonicalRequest;
import dev.idempotency.canonical.RequestCanonicalizer;
import java.nio.charset.StandardCharsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Building the canonical request of a JSON POST: parse, sort members, normalize numbers, write. */
@State(Scope.Benchmark)
public class CanonicalizationBenchmark {
    /** The body's approximate size in bytes. */
    @Param({"1024", "65536"})
    int size;

    private final RequestCanonicalizer canonicalizer = new RequestCanonicalizer();
    private byte[] body;

    @Setup
    public void body() {
        body = JsonBodies.ofSize(size).getBytes(StandardCharsets.UTF_8);
    }

    @Benchmark
    public CanonicalRequest canonicalizeJsonBody() {
        return canonicalizer.canonicalize("POST", "debit:v1", "/api/accounts/1/debits", null, "application/json", body);
    }
}
