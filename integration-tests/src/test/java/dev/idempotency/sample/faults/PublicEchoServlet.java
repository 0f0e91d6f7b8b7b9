package dev.idempotency.sample.faults;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** A covered operation outside the security constraint, reached without authentication. */
@WebServlet("/public/echo")
public class PublicEchoServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        request.getInputStream().transferTo(response.getOutputStream());
    }
}
