package dev.idempotency.foreign.selfcommit;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.transaction.UserTransaction;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import javax.naming.InitialContext;
import javax.sql.DataSource;

/** {@code POST /settle} books a settlement in a {@code UserTransaction} it begins itself, and answers 201. */
@WebServlet("/settle")
public class SettlementServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String reference = request.getParameter("reference");
        try {
            UserTransaction transaction = InitialContext.doLookup("java:comp/UserTransaction");
            DataSource dataSource = InitialContext.doLookup(getServletContext().getInitParameter("datasource"));
            transaction.begin();
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert =
                            connection.prepareStatement("INSERT INTO transfer_log (reference, amount) VALUES (?, ?)")) {
                insert.setString(1, reference);
                insert.setInt(2, Integer.parseInt(request.getParameter("amount")));
                insert.executeUpdate();
            }
            transaction.commit();
        } catch (Exception e) {
            throw new ServletException("settlement " + reference + " failed", e);
        }
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setContentType("text/plain");
        response.getWriter().write("settlement " + reference + " booked");
    }
}
