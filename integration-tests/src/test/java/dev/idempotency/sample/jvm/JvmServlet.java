package dev.idempotency.sample.jvm;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** The Java the server runs on, as the JVM itself names its specification: {@code 1.8}, {@code 11}, {@code 17}. */
@WebServlet("/java")
public class JvmServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.getWriter().print(System.getProperty("java.specification.version"));
    }
}
