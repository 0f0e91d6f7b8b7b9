package dev.idempotency.foreign.ownh2;

import jakarta.annotation.Resource;
import jakarta.annotation.sql.DataSourceDefinition;
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
import java.sql.Statement;
import javax.sql.DataSource;

/** {@code POST /signups} records a signup and answers 201 with its number; {@code GET /signups} counts them. */
@DataSourceDefinition(
        name = "java:app/jdbc/own",
        className = "org.h2.jdbcx.JdbcDataSource",
        url = "jdbc:h2:mem:own;DB_CLOSE_DELAY=-1",
        user = "sa",
        password = "")
@WebServlet("/signups")
public class SignupServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Resource(lookup = "java:app/jdbc/own")
    private transient DataSource dataSource;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        long number;
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO signup (name) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            insert.setString(1, request.getParameter("name"));
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                number = keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new ServletException("signup failed", e);
        }
        response.setStatus(HttpServletResponse.SC_CREATED);
        response.setContentType("text/plain");
        response.getWriter().write("signup " + number);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        try (Connection connection = dataSource.getConnection();
                Statement count = connection.createStatement();
                ResultSet result = count.executeQuery("SELECT count(*) FROM signup")) {
            result.next();
            response.setContentType("text/plain");
            response.getWriter().write(Long.toString(result.getLong(1)));
        } catch (SQLException e) {
            throw new ServletException("count failed", e);
        }
    }
}
