package dev.idempotency;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Puts a key derived from the current {@link IdempotentExecution} on the calls the application makes with a
 * Jakarta REST client, so that a retried request calls other services with the same keys as its first attempt,
 * and a service that deduplicates by key makes its effect once.
 *
 * <p>Register it on a client ({@code ClientBuilder.newClient().register(DerivedKeyClientFilter.class)}) or on a
 * MicroProfile Rest Client interface ({@code @RegisterProvider(DerivedKeyClientFilter.class)}). For each call it:
 *
 * <ul>
 *   <li>adds nothing outside an execution: keyless and uncovered requests, code outside a request, and calls
 *       made on other threads than the request's (an executor, {@code async()} or {@code rx()} invocations,
 *       Rest Client methods returning {@code CompletionStage}), which never see the execution. For those,
 *       derive the key on the request's thread and set the header yourself;
 *   <li>adds nothing to safe methods ({@code GET}, {@code HEAD}, {@code OPTIONS}, {@code TRACE}): they have no
 *       effect to deduplicate;
 *   <li>leaves a key header the application set itself untouched;
 *   <li>otherwise sets the header ({@value #DEFAULT_HEADER}, or the name given to the constructor) to {@link
 *       IdempotentExecution#deriveKey(String)} of the call's label.
 * </ul>
 *
 * <p>The label is the request property {@value #LABEL_PROPERTY} if the call has one ({@code
 * target.request().property(DerivedKeyClientFilter.LABEL_PROPERTY, "charge")}), else the method and the target
 * URI without its query and fragment, such as {@code POST https://pay.example/v1/charges}. The default keeps
 * the key stable across retries without any code, but two calls with the same method to the same URI in one
 * execution get the same key, and the service takes the second for a retry of the first: give such calls
 * labels of their own. A query that varies between attempts (a timestamp) does not change the default label.
 *
 * <p>Not annotated {@code @Provider}, so it is never registered anywhere the application did not register it.
 *
 * <p>Stateless and thread-safe.
 */
public final class DerivedKeyClientFilter implements ClientRequestFilter {
    /** The request property that names a call's label. */
    public static final String LABEL_PROPERTY = "dev.idempotency.label";

    /** The header the key is sent in unless another is named: the one this filter and most providers read. */
    public static final String DEFAULT_HEADER = "Idempotency-Key";

    private static final Set<String> SAFE_METHODS =
            Collections.unmodifiableSet(new HashSet<>(Arrays.asList("GET", "HEAD", "OPTIONS", "TRACE")));

    private final String header;

    /** Sends the key in {@value #DEFAULT_HEADER}; the constructor MicroProfile Rest Client uses. */
    public DerivedKeyClientFilter() {
        this(DEFAULT_HEADER);
    }

    /**
     * @param header the header the called service reads its key from
     * @throws IllegalArgumentException if the header name is null or blank
     */
    public DerivedKeyClientFilter(String header) {
        if (header == null || header.trim().isEmpty()) {
            throw new IllegalArgumentException("the key header needs a name, such as " + DEFAULT_HEADER + "; was "
                    + (header == null ? "null" : "\"" + header + "\""));
        }
        this.header = header;
    }

    @Override
    public void filter(ClientRequestContext request) {
        Optional<IdempotentExecution> execution = IdempotentExecution.current();
        if (!execution.isPresent()
                || SAFE_METHODS.contains(request.getMethod())
                || request.getHeaderString(header) != null) {
            return;
        }
        request.getHeaders().putSingle(header, execution.get().deriveKey(labelOf(request)));
    }

    private static String labelOf(ClientRequestContext request) {
        Object label = request.getProperty(LABEL_PROPERTY);
        if (label != null) {
            return label.toString();
        }
        // A client's target is an absolute, hierarchical http(s) URI.
        URI target = request.getUri();
        return request.getMethod() + " " + target.getScheme() + "://" + target.getRawAuthority() + target.getRawPath();
    }
}
