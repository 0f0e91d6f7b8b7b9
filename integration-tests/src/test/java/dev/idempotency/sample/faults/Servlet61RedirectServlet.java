package dev.idempotency.sample.faults;

import dev.idempotency.sample.Account;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Debits an account and answers with Servlet 6.1's {@code sendRedirect(location, 303, true)}: Post/Redirect/Get as a
 * Jakarta EE 11 application writes it. Deployed on Servlet 6.1 servers only (Servlet61RedirectIT).
 */
@WebServlet("/api/test-redirect")
public class Servlet61RedirectServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @PersistenceContext(unitName = "sample")
    transient EntityManager entityManager;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException {
        long account = Long.parseLong(request.getParameter("account"));
        entityManager
                .find(Account.class, account, LockModeType.PESSIMISTIC_WRITE)
                .debit(100);
        entityManager.flush();
        try {
            // The Servlet 6.1 method, called as code compiled against Servlet 6.1 calls it: through the interface, on
            // whatever response the container handed over (the tests compile against Servlet 6.0, which lacks it).
            HttpServletResponse.class
                    .getMethod("sendRedirect", String.class, int.class, boolean.class)
                    .invoke(response, request.getContextPath() + "/api/accounts/" + account, 303, true);
        } catch (ReflectiveOperationException e) {
            throw new ServletException("Servlet 6.1's sendRedirect(String, int, boolean) failed", e);
        }
    }
}
