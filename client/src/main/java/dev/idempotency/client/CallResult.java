package dev.idempotency.client;

/**
 * The answer a keyed call ended with, and what it took: the key it carried, the attempts made, whether the
 * service replayed the answer from its record, and why the loop stopped.
 *
 * <p>Immutable and thread-safe as far as the response is.
 *
 * @param <R> the client's response type
 */
public final class CallResult<R> {
    private final R response;
    private final String key;
    private final int attempts;
    private final boolean replayed;
    private final RetryDecision lastDecision;

    CallResult(R response, String key, int attempts, boolean replayed, RetryDecision lastDecision) {
        this.response = response;
        this.key = key;
        this.attempts = attempts;
        this.replayed = replayed;
        this.lastDecision = lastDecision;
    }

    /** The last attempt's answer, whatever its status: the caller reads and closes it. */
    public R response() {
        return response;
    }

    /** The {@value IdempotentCall#KEY_HEADER} every attempt carried. */
    public String key() {
        return key;
    }

    /** The attempts made, the first included. */
    public int attempts() {
        return attempts;
    }

    /**
     * Whether the answer is the service's stored answer to an earlier attempt ({@value
     * IdempotentCall#REPLAYED_HEADER}{@code : true}): the call's effect happened once, on an attempt whose answer
     * this caller never saw.
     */
    public boolean isReplayed() {
        return replayed;
    }

    /** Why the loop stopped after the last attempt. */
    public RetryDecision lastDecision() {
        return lastDecision;
    }

    @Override
    public String toString() {
        return "CallResult[key=" + key + ", attempts=" + attempts + ", replayed=" + replayed + ", " + lastDecision
                + "]";
    }
}
