package dev.idempotency.foreign.guestbook;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
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

/** {@code POST /sign?name=…} adds a guestbook entry and answers 201 with its number. */
@WebServlet("/sign")
public class SignServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private transient DataSource dataSource;

    @Override
    public void init() throws ServletException {
        try {
            dataSource = InitialContext.doLookup("jdbc/sample");
        } catch (NamingException e) {
            throw new ServletException("no datasource", e);
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        long number;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO guestbook_entry (name) VALUES (?) RETURNING id")) {
            insert.setString(1, request.getParameter("name"));
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                number = row.getLong(1);
            }
        } catch (SQLException e) {
            throw new ServletException("signing failed", e);
        }
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setContentType("text/plain");
        response.getWriter().write("entry " + number);
    }
}
