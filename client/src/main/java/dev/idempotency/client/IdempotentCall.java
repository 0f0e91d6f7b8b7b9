package dev.idempotency.client;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One logical call on the calling thread: every keyed request sent while it is open carries its one key, so that
 * the call's retries (the library's, or MicroProfile Fault Tolerance's) are recognized as one, and the next call
 * gets a new key.
 *
 * <pre>{@code
 * try (IdempotentCall call = IdempotentCall.open()) {
 *     Response answer = target.request().post(Entity.json(order));  // with IdempotencyKeyFilter registered
 *     boolean replay = call.isReplayed();
 * }
 * }</pre>
 *
 * <p>The key:
 *
 * <ul>
 *   <li>outside a covered request: a random UUID, made when the call is opened;
 *   <li>inside a request the idempotency filter covers (same thread, filter jar present): derived from the
 *       request's key by {@code IdempotentExecution.deriveKey} with the call's label, so that a retry of the
 *       covered request sends the same keys again. {@link #open(String)} names the label; without one, the label of
 *       the first request sent in the call (for the Jakarta REST adapter: the method and the target URI without
 *       its query, as {@code DerivedKeyClientFilter} labels it) fixes the key for the rest of the call.
 * </ul>
 *
 * <p>An {@code open} while a call is open on the thread joins it: same key, and only the outermost {@link #close()}
 * ends the call. So a method marked as one call may call another without splitting its key.
 *
 * <p>Bound to the thread that opened it: requests sent on other threads (an executor, an asynchronous client)
 * do not see it. The key and the replay flag may be read from any thread. Close it on the thread that opened it.
 */
public final class IdempotentCall implements AutoCloseable {
    /** The header the key is sent in. */
    public static final String KEY_HEADER = "Idempotency-Key";

    /** The header with which the filter marks an answer replayed from its record, with the value {@code true}. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private static final ThreadLocal<State> CURRENT = new ThreadLocal<>();

    private final State state;
    /** Whether this handle counts towards the call's opens; a handle from {@link #current()} does not. */
    private final boolean opened;

    private boolean closed;

    private IdempotentCall(State state, boolean opened) {
        this.state = state;
        this.opened = opened;
    }

    /** Opens a logical call on this thread, or joins the one already open. */
    public static IdempotentCall open() {
        return join(null);
    }

    /**
     * Opens a logical call on this thread, or joins the one already open (whose label then stays).
     *
     * @param label what the call is for, such as {@code "charge"}; inside a covered request, the label the key is
     *     derived from, so give each call of one request its own
     * @throws IllegalArgumentException if the label is blank
     */
    public static IdempotentCall open(String label) {
        if (label != null && label.trim().isEmpty()) {
            throw new IllegalArgumentException(
                    "a call's label names what it is for, such as \"charge\"; was \"" + label + "\"");
        }
        return join(label);
    }

    private static IdempotentCall join(String label) {
        State state = CURRENT.get();
        if (state == null) {
            state = new State(label, CoveredRequest.keyDerivation());
            CURRENT.set(state);
        } else {
            state.depth++;
        }
        return new IdempotentCall(state, true);
    }

    /** The call open on this thread, or empty; closing the handle it gives does not end the call. */
    public static Optional<IdempotentCall> current() {
        State state = CURRENT.get();
        return state == null ? Optional.empty() : Optional.of(new IdempotentCall(state, false));
    }

    /**
     * The call's key, the same for every request and retry of this call.
     *
     * @throws IllegalStateException inside a covered request, for a call opened without a label that has sent
     *     nothing yet: its key will come from its first request's label; open it with a label to know it sooner
     */
    public String key() {
        String key = state.key;
        if (key == null) {
            throw new IllegalStateException("inside a covered request, a call's key is derived from a label, and this"
                    + " call has none yet: open it with IdempotentCall.open(label), or read the key after the first"
                    + " request");
        }
        return key;
    }

    /**
     * The key to send on a request of this call: the call's key, fixed by the first request's label if the call
     * has no key yet. For adapters.
     *
     * @param requestLabel what the request is, such as {@code POST https://pay.example/v1/charges}
     */
    public String keyFor(String requestLabel) {
        return state.keyFor(requestLabel);
    }

    /** The key if it is fixed yet, else null. */
    String keyIfFixed() {
        return state.key;
    }

    /**
     * Whether the last answer this call received was replayed by the service from its record (the first
     * execution's answer, not a new one). False until an adapter saw an answer.
     */
    public boolean isReplayed() {
        return state.replayed;
    }

    /**
     * Records an answer this call received, so that {@link #isReplayed()} tells of it. For adapters.
     *
     * @param header the answer's header by name, case-insensitively, or null when absent
     */
    public void recordAnswer(Function<String, String> header) {
        state.replayed = isReplay(header);
    }

    /** Whether an answer with these headers is a replay: {@value #REPLAYED_HEADER}{@code : true}. */
    public static boolean isReplay(Function<String, String> header) {
        String value = header.apply(REPLAYED_HEADER);
        return value != null && "true".equalsIgnoreCase(value.trim());
    }

    /**
     * Ends the call if this is its outermost open; a second close of one handle, and the close of a handle from
     * {@link #current()}, do nothing.
     */
    @Override
    public void close() {
        if (closed || !opened) {
            return;
        }
        closed = true;
        if (--state.depth == 0 && CURRENT.get() == state) {
            CURRENT.remove();
        }
    }

    @Override
    public String toString() {
        String key = state.key;
        return "IdempotentCall[" + (key == null ? "key from its first request" : key) + "]";
    }

    /** What every handle of one call shares. */
    private static final class State {
        private final UnaryOperator<String> derivation;
        private volatile String key;
        private volatile boolean replayed;
        private int depth = 1;

        State(String label, UnaryOperator<String> derivation) {
            this.derivation = derivation;
            if (derivation == null) {
                key = UUID.randomUUID().toString();
            } else if (label != null) {
                key = derivation.apply(label);
            }
        }

        synchronized String keyFor(String requestLabel) {
            if (key == null) {
                key = derivation.apply(requestLabel);
            }
            return key;
        }
    }
}
