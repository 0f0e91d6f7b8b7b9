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

    /** On 409 and 503 problems: when to retry with the same key (RFC 9110). */
    public static final String RETRY_AFTER_HEADER = "Retry-After";

    /** On keyless requests in {@code OPTIONAL}: since when keys are asked for (RFC 9745). */
    public static final String DEPRECATION_HEADER = "Deprecation";

    /** On keyless requests in {@code OPTIONAL}: when keys become mandatory, if configured (RFC 8594). */
    public static final String SUNSET_HEADER = "Sunset";

    /** On keyless requests in {@code OPTIONAL}: the migration guide, as a {@code describedby} link (RFC 8288). */
    public static final String LINK_HEADER = "Link";

    /** The 422's extension member: JSON pointers into the canonical request, where the two requests differ. */
    public static final String MISMATCHES_MEMBER = "mismatches";
}
