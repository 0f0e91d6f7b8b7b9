package dev.idempotency.servlet;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotency.config.ProblemErrorMember;
import dev.idempotency.config.RetryHints;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the filter's answers tell a client's SDK besides the answer itself, as the {@code retry-hints} and {@code
 * problem-error-member} settings ask: whether a retry can change the answer ({@code x-should-retry}, {@code
 * Stripe-Should-Retry}), and the {@code error} member the Stripe SDKs raise their typed errors from. Both are off
 * by default ({@link #NONE}). {@code docs/clients.md} says what each SDK makes of them.
 *
 * <p>Immutable and thread-safe.
 */
final class AnswerHints {
    /** No hint and no member: the default, and the answers of the admin servlet. */
    static final AnswerHints NONE = new AnswerHints(RetryHints.NONE, ProblemErrorMember.NONE);

    /** Stripe's {@code error.type} for a problem with the key: stripe-node raises {@code StripeIdempotencyError}. */
    static final String IDEMPOTENCY_ERROR = "idempotency_error";

    /** Stripe's {@code error.type} for another request a retry cannot fix. */
    static final String INVALID_REQUEST_ERROR = "invalid_request_error";

    /** Stripe's {@code error.type} for a failure on the server's side. */
    static final String API_ERROR = "api_error";

    private final RetryHints retryHints;
    private final ProblemErrorMember errorMember;

    AnswerHints(RetryHints retryHints, ProblemErrorMember errorMember) {
        this.retryHints = retryHints;
        this.errorMember = errorMember;
    }

    /**
     * Whether sending the same request again can get another answer than this problem: {@code true} for a key still
     * held (409) and a store or commit that failed (503); {@code false} for what the same request always gets (every
     * other 4xx, and the 500s that say a retry fails the same way); none for a failure of the application (500
     * {@code application-failed}), which a retry may or may not change, so the SDK's own rule decides.
     */
    static Optional<Boolean> retryCanChange(Problem problem) {
        return switch (problem) {
            case REQUEST_IN_PROGRESS, TRANSACTION_CONFLICT, STORE_UNAVAILABLE, COMMIT_FAILED -> Optional.of(true);
            case APPLICATION_FAILED -> Optional.empty();
            case KEY_INVALID,
                    KEY_REQUIRED,
                    ROLLOUT_MODE_INVALID,
                    SCOPE_REQUIRED,
                    AUTHENTICATION_REQUIRED,
                    REPLAY_FORBIDDEN,
                    OPERATION_UNKNOWN,
                    REQUEST_INCOMPLETE,
                    REQUEST_TOO_LARGE,
                    KEY_EXPIRED,
                    KEY_REUSED,
                    TRANSACTION_SELF_MANAGED,
                    RESPONSE_TOO_LARGE,
                    ASYNCHRONOUS_RESPONSE,
                    RECORD_UNREADABLE,
                    CSRF_TOKEN_INVALID -> Optional.of(false);
        };
    }

    /** The retry hints on a problem answer, if {@code retry-hints = sdk}. */
    Map<String, List<String>> problemHeaders(Problem problem) {
        return retryCanChange(problem).map(this::shouldRetry).orElse(Collections.emptyMap());
    }

    /**
     * The retry hints on a replayed response, if {@code retry-hints = sdk}: a stored 4xx is what every retry with
     * the key gets until the record expires, so {@code false}; nothing on other statuses, which SDKs do not retry
     * (2xx, 3xx) or which the filter never stores (5xx).
     */
    Map<String, List<String>> replayHeaders(int status) {
        return status >= 400 && status < 500 ? shouldRetry(false) : Collections.emptyMap();
    }

    private Map<String, List<String>> shouldRetry(boolean retry) {
        if (retryHints == RetryHints.NONE) {
            return Collections.emptyMap();
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        headers.put(WireNames.SHOULD_RETRY_HEADER, Collections.singletonList(Boolean.toString(retry)));
        headers.put(WireNames.STRIPE_SHOULD_RETRY_HEADER, Collections.singletonList(Boolean.toString(retry)));
        return headers;
    }

    /**
     * Stripe's {@code error} member for a problem, if {@code problem-error-member = stripe}: its {@code type} is
     * what the Stripe SDKs type the error by, its {@code code} the problem's slug (stable), its {@code message} the
     * detail (for people).
     */
    Optional<ObjectNode> errorMember(Problem problem, String detail) {
        if (errorMember == ProblemErrorMember.NONE) {
            return Optional.empty();
        }
        ObjectNode error = JsonNodeFactory.instance.objectNode();
        error.put("type", stripeType(problem));
        error.put("code", problem.slug());
        error.put("message", detail);
        return Optional.of(error);
    }

    /**
     * Every problem about the key itself is Stripe's {@code idempotency_error}, as Stripe answers a reused key; a
     * server-side failure is {@code api_error}; any other refusal {@code invalid_request_error}.
     */
    static String stripeType(Problem problem) {
        return switch (problem) {
            case KEY_INVALID, KEY_REQUIRED, KEY_REUSED, KEY_EXPIRED, REQUEST_IN_PROGRESS -> IDEMPOTENCY_ERROR;
            default -> problem.status() >= 500 ? API_ERROR : INVALID_REQUEST_ERROR;
        };
    }
}
