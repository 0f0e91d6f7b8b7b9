package dev.idempotency.sample.faults;

import dev.idempotency.sample.Account;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.sql.SQLException;

/**
 * A plain servlet (no JAX-RS to turn exceptions into a 500) that debits an account and then fails the way
 * a serialization failure surfaces from JDBC: an exception whose cause carries SQLSTATE 40001. The failure
 * is simulated; the debit and its rollback are real.
 */
@WebServlet("/api/test-conflict")
public class ConflictServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @PersistenceContext(unitName = "sample")
    transient EntityManager entityManager;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) {
        long account = Long.parseLong(request.getParameter("account"));
        entityManager
                .find(Account.class, account, LockModeType.PESSIMISTIC_WRITE)
                .debit(100);
        entityManager.flush();
        throw new IllegalStateException(
                "simulated", new SQLException("could not serialize access due to concurrent update", "40001"));
    }
}
