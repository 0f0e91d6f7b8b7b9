package dev.idempotency.config;

/**
 * Whether the filter's problem documents carry an extension member that a client's SDK reads as a typed error:
 * the {@code problem-error-member} setting. Off by default: a document without it is plain RFC 9457.
 */
public enum ProblemErrorMember {
    /** The RFC 9457 members and the filter's own extensions only. */
    NONE,
    /** Also {@code "error": {"type", "code", "message"}}, the member the Stripe SDKs raise their errors from. */
    STRIPE
}
