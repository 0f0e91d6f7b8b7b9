package dev.idempotency.sample.faults;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.TreeMap;

/**
 * A legacy-style form handler: it reads its input with {@code getParameterMap()}, which must still work
 * after the filter has consumed the body to canonicalize it. Answers the parameters it saw, sorted.
 */
@WebServlet("/api/test-form")
public class FormEchoServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        StringBuilder seen = new StringBuilder();
        new TreeMap<>(request.getParameterMap()).forEach((name, values) -> seen.append(name)
                .append('=')
                .append(String.join("|", values))
                .append(';'));
        response.setContentType("text/plain");
        response.getWriter().write(seen.toString());
    }
}
