package dev.idempotency.sample.faults;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.MultipartConfig;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * A multipart form handler, as a servlet with {@code @MultipartConfig} reads one: its fields with {@code
 * getParameter}, its upload with {@code getPart}. Both must still work after the filter has read the body to find
 * the key and canonicalize it. Answers what it saw.
 */
@WebServlet("/api/test-multipart")
@MultipartConfig
public class MultipartEchoServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        StringBuilder seen = new StringBuilder("parameters:");
        new TreeMap<>(request.getParameterMap()).forEach((name, values) -> seen.append(name)
                .append('=')
                .append(String.join("|", values))
                .append(';'));
        seen.append(" parts:");
        for (Part part : request.getParts()) {
            seen.append(part.getName()).append('[').append(part.getSize()).append("];");
        }
        Part receipt = request.getPart("receipt");
        seen.append(" receipt:")
                .append(receipt.getSubmittedFileName())
                .append(',')
                .append(receipt.getContentType())
                .append(',')
                .append(text(receipt));
        response.setContentType("text/plain");
        response.getWriter().write(seen.toString());
    }

    private static String text(Part part) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[1024];
        try (InputStream in = part.getInputStream()) {
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                bytes.write(buffer, 0, n);
            }
        }
        return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
    }
}
