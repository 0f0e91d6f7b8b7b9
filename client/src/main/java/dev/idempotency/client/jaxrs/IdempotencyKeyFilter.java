package dev.idempotency.client.jaxrs;

import dev.idempotency.client.IdempotentCall;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.client.ClientResponseContext;
import jakarta.ws.rs.client.ClientResponseFilter;
import java.net.URI;
import java.util.Optional;

/**
 * Puts an {@value IdempotentCall#KEY_HEADER} on every {@code POST} and {@code PATCH} a Jakarta REST client sends,
 * and tells the open {@link IdempotentCall} whether the answer was a replay.
 *
 * <p>Register it on a client ({@code ClientBuilder.newClient().register(IdempotencyKeyFilter.class)}) or on a
 * MicroProfile Rest Client interface ({@code @RegisterProvider(IdempotencyKeyFilter.class)}). For each request:
 *
 * <ul>
 *   <li>{@code GET}, {@code PUT}, {@code DELETE} and the other methods: nothing (they are idempotent by
 *       definition, or safe);
 *   <li>a key the application set itself: left untouched;
 *   <li>inside an open {@link IdempotentCall} on the sending thread: the call's key, so that every retry of the
 *       call carries it (the call is opened by {@link IdempotentInvoker}, by {@code @KeyedCall}, or by the
 *       application's own {@code try (IdempotentCall call = IdempotentCall.open())});
 *   <li>otherwise: a key of the request's own, a random UUID, or inside a covered request the key derived from
 *       the request's key as {@code DerivedKeyClientFilter} derives it. A retry the filter cannot see as part of
 *       the same call gets a new key, so open a call around anything that retries.
 * </ul>
 *
 * <p>Inside a covered request, a call opened without a label takes its key from the label of its first request:
 * the request property {@value #LABEL_PROPERTY}, else the method and the target URI without query and fragment.
 *
 * <p>Not annotated {@code @Provider}, so it is never registered where the application did not register it.
 *
 * <p>Stateless and thread-safe.
 */
public final class IdempotencyKeyFilter implements ClientRequestFilter, ClientResponseFilter {
    /** The request property that names a request's label; the same as {@code DerivedKeyClientFilter}'s. */
    public static final String LABEL_PROPERTY = "dev.idempotency.label";

    @Override
    public void filter(ClientRequestContext request) {
        String method = request.getMethod();
        if (!("POST".equals(method) || "PATCH".equals(method))
                || request.getHeaderString(IdempotentCall.KEY_HEADER) != null) {
            return;
        }
        Optional<IdempotentCall> call = IdempotentCall.current();
        String key;
        if (call.isPresent()) {
            key = call.get().keyFor(labelOf(request));
        } else {
            // A call of one request: opened and closed here, so the derivation and the UUID follow the same rule.
            try (IdempotentCall ownCall = IdempotentCall.open()) {
                key = ownCall.keyFor(labelOf(request));
            }
        }
        request.getHeaders().putSingle(IdempotentCall.KEY_HEADER, key);
    }

    @Override
    public void filter(ClientRequestContext request, ClientResponseContext response) {
        IdempotentCall.current().ifPresent(call -> call.recordAnswer(response::getHeaderString));
    }

    static String labelOf(ClientRequestContext request) {
        Object label = request.getProperty(LABEL_PROPERTY);
        return label != null ? label.toString() : labelOf(request.getMethod(), request.getUri());
    }

    /** The method and the target without query and fragment, as {@code DerivedKeyClientFilter} labels a call. */
    static String labelOf(String method, URI target) {
        return method + " " + target.getScheme() + "://" + target.getRawAuthority() + target.getRawPath();
    }
}
