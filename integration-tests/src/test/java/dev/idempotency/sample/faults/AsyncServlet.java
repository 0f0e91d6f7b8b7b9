package dev.idempotency.sample.faults;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A covered operation that answers asynchronously, which the filter must refuse rather than half-store. */
@WebServlet(urlPatterns = "/api/test-async", asyncSupported = true)
public class AsyncServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AsyncContext async = request.startAsync();
        async.start(() -> {
            try {
                async.getResponse().getWriter().write("{\"late\": true}");
            } catch (IOException ignored) {
                // The filter has refused the request by now.
            }
            async.complete();
        });
    }
}
