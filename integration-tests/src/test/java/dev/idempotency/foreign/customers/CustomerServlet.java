package dev.idempotency.foreign.customers;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/** Creates a customer, as Stripe's {@code POST /v1/customers} does, for any caller with a test API key. */
public class CustomerServlet extends HttpServlet {
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
        String authorization = String.valueOf(request.getHeader("Authorization"));
        if (!authorization.startsWith("Bearer sk_test_")) {
            error(response, 401, "invalid_request_error", "Invalid API Key provided");
            return;
        }
        String name = request.getParameter("name");
        String email = request.getParameter("email");
        if (name == null) {
            error(response, 400, "invalid_request_error", "Missing required param: name.");
            return;
        }
        long id;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO customer (name, email) VALUES (?, ?) RETURNING id")) {
            insert.setString(1, name);
            insert.setString(2, email);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                id = row.getLong(1);
            }
        } catch (SQLException e) {
            error(response, 500, "api_error", "An error occurred with our connection to the database.");
            return;
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        response.getWriter()
                .write("{\"id\": \"cus_" + id + "\", \"object\": \"customer\", \"name\": " + quoted(name)
                        + ", \"email\": " + (email == null ? "null" : quoted(email)) + ", \"livemode\": false}");
    }

    private static void error(HttpServletResponse response, int status, String type, String message)
            throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        response.getWriter()
                .write("{\"error\": {\"type\": " + quoted(type) + ", \"message\": " + quoted(message) + "}}");
    }

    /** The test's names and addresses hold no quote or backslash; anything else is refused rather than escaped. */
    private static String quoted(String text) {
        if (text.indexOf('"') >= 0 || text.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("not a plain value: " + text);
        }
        return "\"" + text + "\"";
    }
}
