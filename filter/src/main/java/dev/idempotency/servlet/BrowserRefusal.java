package dev.idempotency.servlet;

import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.config.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A refusal a person reads in a browser, rather than a client parses: a form posted with its key in a field, or a
 * request that accepts HTML. It goes through the container's error-page mechanism ({@code sendError}), so the
 * application's own {@code <error-page>} for the status serves it, as it serves the application's other errors;
 * where the application has none, the filter writes a small page that says the same as the problem's detail.
 * The error page finds the problem's {@code type} in the request attribute {@value #PROBLEM_TYPE_ATTRIBUTE}.
 *
 * <p>Stateless and thread-safe.
 */
final class BrowserRefusal {
    /** The request attribute an application's error page reads the problem's {@code type} URI from. */
    static final String PROBLEM_TYPE_ATTRIBUTE = "dev.idempotency.problem.type";

    private BrowserRefusal() {}

    /**
     * Whether this request's refusal is for a person: a form post without a key header to an operation that takes
     * keys from a form field (a browser's), or a request whose {@code Accept} names HTML. API clients, which send the
     * key header, keep their problem documents, form bodies included.
     */
    static boolean wanted(HttpServletRequest request, IdempotencyConfig config, Operation operation) {
        String accept = request.getHeader("Accept");
        boolean browserForm = request.getHeader(config.keyHeader()) == null
                && config.policyOf(operation).keyField().isPresent()
                && BufferedBodyRequest.postsForm(request.getContentType());
        return browserForm || (accept != null && accept.toLowerCase(Locale.ROOT).contains("text/html"));
    }

    static void send(HttpServletRequest request, HttpServletResponse response, Reply.Refusal refusal)
            throws IOException {
        ProblemException problem = refusal.problem();
        int status = problem.problem().status();
        refusal.delay().ifPresent(delay -> delay.headers()
                .forEach((name, values) -> values.forEach(value -> response.addHeader(name, value))));
        if (ErrorPages.of(request.getServletContext()).has(status)) {
            request.setAttribute(PROBLEM_TYPE_ATTRIBUTE, problem.problem().type());
            response.sendError(status, problem.detail());
            return;
        }
        byte[] page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
                        + HtmlText.escape(problem.problem().title()) + "</title></head>\n<body><h1>"
                        + HtmlText.escape(problem.problem().title()) + "</h1>\n<p>" + HtmlText.escape(problem.detail())
                        + "</p></body></html>\n")
                .getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/html;charset=UTF-8");
        response.setContentLength(page.length);
        response.getOutputStream().write(page);
    }
}
