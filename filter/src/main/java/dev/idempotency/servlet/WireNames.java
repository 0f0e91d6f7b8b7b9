package dev.idempotency.servlet;

/**
 * Every name the filter puts on the wire besides the problem types ({@link Problem}): the headers it sends and the
 * problem documents' extension members. Clients and their SDKs read these names, so they change only with a
 * release note; {@code docs/errors.md} and the OpenAPI additions describe them.
 *
 * <p>Constants only.
 */
public final class WireNames {
    private WireNames() {}

    /** {@code true} on a stored response sent again: the application did not run for this request. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /** On stored and replayed responses: until when a retry with the same key gets the stored response. */
    public static final String EXPIRES_HEADER = "Idempotency-Key-Expires";

    /** On 409 and 503 problems: when to retry with the same key, in whole seconds (RFC 9110). */
    public static final String RETRY_AFTER_HEADER = "Retry-After";

    /** Beside {@code Retry-After}: the same delay in milliseconds, as Stainless-generated SDKs read it. */
    public static final String RETRY_AFTER_MS_HEADER = "retry-after-ms";

    /** With {@code retry-hints = sdk}: whether a retry can change the answer, as Stainless-generated SDKs read it. */
    public static final String SHOULD_RETRY_HEADER = "x-should-retry";

    /** With {@code retry-hints = sdk}: the same, as the Stripe SDKs read it. */
    public static final String STRIPE_SHOULD_RETRY_HEADER = "Stripe-Should-Retry";

    /** On keyless requests in {@code OPTIONAL}: since when keys are asked for (RFC 9745). */
    public static final String DEPRECATION_HEADER = "Deprecation";

    /** On keyless requests in {@code OPTIONAL}: when keys become mandatory, if configured (RFC 8594). */
    public static final String SUNSET_HEADER = "Sunset";

    /** On keyless requests in {@code OPTIONAL}: the migration guide, as a {@code describedby} link (RFC 8288). */
    public static final String LINK_HEADER = "Link";

    /** The 422's extension member: JSON pointers into the canonical request, where the two requests differ. */
    public static final String MISMATCHES_MEMBER = "mismatches";

    /** With {@code problem-error-member = stripe}: the member the Stripe SDKs raise their typed errors from. */
    public static final String ERROR_MEMBER = "error";
}
