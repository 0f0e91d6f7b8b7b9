package dev.idempotency.sample.faults;

import dev.idempotency.sample.forms.TopUps;
import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The sample's top-up, held at the gate its form names, while its transaction holds the key's claim: so that a
 * test can put a browser's second click in place while the first is still running, without sleeping.
 */
@WebServlet("/forms/gated-top-ups")
public class GatedTopUpServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Inject
    transient TopUps topUps;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        try {
            Gates.holdAt(request.getParameter("gate"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServletException(e);
        }
        long balance = topUps.credit(
                        Long.parseLong(request.getParameter("account")), Long.parseLong(request.getParameter("amount")))
                .orElseThrow(() -> new ServletException("no account " + request.getParameter("account")));
        request.setAttribute("balance", balance);
        request.getRequestDispatcher("/forms/topped-up.jsp").forward(request, response);
    }
}
