package dev.idempotency.foreign.moderations;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/** Records a moderation request, as OpenAI's {@code POST /v1/moderations} is called, for any caller with an API key. */
public class ModerationServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private transient DataSource dataSource;

    @Override
    public void init() throws ServletException {
        try {
            dataSource = InitialContext.doLookup(getServletContext().getInitParameter("datasource"));
        } catch (NamingException e) {
            throw new ServletException("no datasource", e);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!String.valueOf(request.getHeader("Authorization")).startsWith("Bearer sk-")) {
            response.setStatus(401);
            response.setContentType("application/json");
            response.getWriter().write("{\"error\": {\"message\": \"Incorrect API key provided\"}}");
            return;
        }
        // The body as sent: this API keeps it, and answers without parsing it.
        String input = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        long id;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO moderation (input) VALUES (?) RETURNING id")) {
            insert.setString(1, input);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                id = row.getLong(1);
            }
        } catch (SQLException e) {
            response.setStatus(500);
            response.setContentType("application/json");
            response.getWriter().write("{\"error\": {\"message\": \"The server had an error\"}}");
            return;
        }
        response.setContentType("application/json");
        response.getWriter()
                .write("{\"id\": \"modr-" + id + "\", \"model\": \"omni-moderation-latest\", \"results\": []}");
    }
}
