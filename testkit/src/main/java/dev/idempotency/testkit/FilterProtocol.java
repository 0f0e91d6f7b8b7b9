package dev.idempotency.testkit;

/**
 * The parts of the filter's HTTP protocol the checks rely on, as plain strings: the kit does not depend on
 * the filter's jar, so a test sees exactly what a client sees. The problem types are the stable API listed in
 * {@code docs/errors.md}.
 */
public final class FilterProtocol {
    /** The request header that carries the key, unless the filter's {@code key-header} setting names another. */
    public static final String DEFAULT_KEY_HEADER = "Idempotency-Key";

    /** Sent with the value {@code true} on a stored response that is replayed; absent on an execution. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /** Sent to keyless requests under rollout mode {@code OPTIONAL} (RFC 9745), never under the other modes. */
    public static final String DEPRECATION_HEADER = "Deprecation";

    /** The content type of every problem response the filter sends (RFC 9457). */
    public static final String PROBLEM_CONTENT_TYPE = "application/problem+json";

    /** 422: the key was already used for a different request. */
    public static final String PROBLEM_KEY_REUSED = "urn:dev.idempotency:problem:idempotency-key-reused";

    /** 400: rollout mode {@code REQUIRED} and the request has no key. */
    public static final String PROBLEM_KEY_REQUIRED = "urn:dev.idempotency:problem:idempotency-key-required";

    /** 409: a duplicate waited for the first request longer than the filter's {@code lock-timeout}. */
    public static final String PROBLEM_REQUEST_IN_PROGRESS = "urn:dev.idempotency:problem:request-in-progress";

    private FilterProtocol() {}
}
