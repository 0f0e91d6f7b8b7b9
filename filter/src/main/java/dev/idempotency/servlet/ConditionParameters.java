package dev.idempotency.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The request that an operation's parameter conditions ({@code POST /app?action=buy}) are checked against,
 * and that then goes on to the application. A parameter is the value the application would read with {@code
 * getParameter}: from the query string first, then from an {@code application/x-www-form-urlencoded} body.
 * Such a body is read once, under the size cap, and handed on buffered, so the application still reads every
 * parameter, covered or not. Other bodies (multipart among them) are never read here: only their query string
 * counts, because parsing them would consume a body the application may stream itself.
 *
 * <p>Not thread-safe, like the request it wraps.
 */
public final class ConditionParameters {
    private static final String FORM = "application/x-www-form-urlencoded";

    private final HttpServletRequest request;
    private final UnaryOperator<String> parameter;

    private ConditionParameters(HttpServletRequest request, UnaryOperator<String> parameter) {
        this.request = request;
        this.parameter = parameter;
    }

    /**
     * @throws ProblemException {@link Problem#REQUEST_TOO_LARGE} or {@link Problem#REQUEST_INCOMPLETE} if a
     *     form body is larger than {@code maxBodyBytes} or ends early
     */
    public static ConditionParameters of(HttpServletRequest request, long maxBodyBytes) throws ProblemException {
        String contentType = request.getContentType();
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith(FORM)) {
            BufferedBodyRequest buffered = BufferedBodyRequest.read(request, maxBodyBytes);
            return new ConditionParameters(buffered, buffered::getParameter);
        }
        Map<String, List<String>> query = FormPairs.decode(request.getQueryString(), StandardCharsets.UTF_8);
        return new ConditionParameters(request, name -> {
            List<String> values = query.get(name);
            return values == null ? null : values.get(0);
        });
    }

    /** The parameter's first value, or {@code null}. */
    public String parameter(String name) {
        return parameter.apply(name);
    }

    /** The request to hand on: the original, or its buffered copy if the form body was read. */
    public HttpServletRequest request() {
        return request;
    }
}
