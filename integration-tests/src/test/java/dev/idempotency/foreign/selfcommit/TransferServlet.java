package dev.idempotency.foreign.selfcommit;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/** {@code POST /transfer} books a transfer in a JDBC transaction of its own and answers 201. */
@WebServlet("/transfer")
public class TransferServlet extends HttpServlet {
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
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String reference = request.getParameter("reference");
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert =
                    connection.prepareStatement("INSERT INTO transfer_log (reference, amount) VALUES (?, ?)")) {
                insert.setString(1, reference);
                insert.setInt(2, Integer.parseInt(request.getParameter("amount")));
                insert.executeUpdate();
            }
            connection.commit();
        } catch (SQLException e) {
            throw new ServletException("transfer " + reference + " failed", e);
        }
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setContentType("text/plain");
        response.getWriter().write("transfer " + reference + " booked");
    }
}
