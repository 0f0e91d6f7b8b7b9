package dev.idempotency.foreign.shop;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/** Every action of the shop, by the request parameter {@code action}; each page is {@code page.jsp}. */
public class ShopServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final int PRICE = 12;

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
        String user = request.getRemoteUser();
        String message;
        switch (String.valueOf(request.getParameter("action"))) {
            case "login":
                request.getSession().setAttribute("user", user);
                message = "Welcome, " + user;
                break;
            case "quote":
                int wanted = quantity(request);
                message = wanted + " widgets cost " + wanted * PRICE + " EUR";
                break;
            case "buy":
                int quantity = quantity(request);
                message = "Order " + placeOrder(user, quantity) + ": " + quantity + " widgets for " + user;
                break;
            case "logout":
                HttpSession session = request.getSession(false);
                message = "Goodbye, " + (session == null ? "guest" : session.getAttribute("user"));
                if (session != null) {
                    session.invalidate();
                }
                break;
            default:
                response.sendError(HttpServletResponse.SC_BAD_REQUEST, "unknown action");
                return;
        }
        response.setContentType("text/html");
        request.setAttribute("message", message);
        request.getRequestDispatcher("/WEB-INF/page.jsp").include(request, response);
    }

    private static int quantity(HttpServletRequest request) {
        return Integer.parseInt(request.getParameter("quantity"));
    }

    private long placeOrder(String customer, int quantity) throws ServletException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO shop_order (customer, quantity) VALUES (?, ?)", new String[] {"id"})) {
            insert.setString(1, customer);
            insert.setInt(2, quantity);
            insert.executeUpdate();
            try (ResultSet keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        } catch (SQLException e) {
            throw new ServletException("the order could not be placed", e);
        }
    }
}
