package dev.idempotency.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.List;
import java.util.Optional;

/**
 * Where a covered request's key is read: the key header first, as every API client sends it; without one, the
 * operation's {@code key-field} in a form body, urlencoded or {@code multipart/form-data} (a text part), as a browser
 * posts it. A browser cannot set a header
 * on a form post, so a page carries its key as a hidden field ({@code dev.idempotency.FormKeys}), or names a
 * field it already posts that is new on every render (a JSF view state saved on the server).
 *
 * <p>Both are validated alike. Stateless and thread-safe.
 */
final class KeySource {
    private final IdempotencyKeyHeader header;

    KeySource(String headerName) {
        this.header = new IdempotencyKeyHeader(headerName);
    }

    /**
     * Whether a request to an operation with this key field must have its body read before its key is known: it
     * has no key header and posts a form.
     */
    boolean needsBody(HttpServletRequest request, Optional<String> keyField) throws ProblemException {
        return keyField.isPresent()
                && BufferedBodyRequest.postsForm(request.getContentType())
                && !header.read(request).isPresent();
    }

    /**
     * @param request the request, its body already buffered if {@link #needsBody} said so
     * @return the key and where it came from, or empty if the request carries none
     * @throws ProblemException {@link Problem#KEY_INVALID} if the header or the field is repeated or malformed
     */
    Optional<SentKey> read(HttpServletRequest request, Optional<String> keyField) throws ProblemException {
        Optional<String> inHeader = header.read(request);
        if (inHeader.isPresent()) {
            return Optional.of(SentKey.inHeader(inHeader.get()));
        }
        if (!keyField.isPresent() || !(request instanceof BufferedBodyRequest form)) {
            return Optional.empty();
        }
        String field = keyField.get();
        List<String> values = form.formBodyValues(field);
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            throw new ProblemException(
                    Problem.KEY_INVALID,
                    "the form field " + field + " was sent " + values.size() + " times; render one key field per"
                            + " form");
        }
        return Optional.of(
                SentKey.inForm(IdempotencyKeyHeader.validated(values.get(0), "the form field " + field), field));
    }
}
