package dev.idempotency.sample.forms;

import jakarta.inject.Inject;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * The JSP form's target ({@code forms/top-up.jsp}), written as old applications are: it reads the posted
 * parameters, credits the account and forwards to a result page, with no redirect, so that a reload of that page
 * posts the form again. The form carries its key in a hidden field; this servlet never sees it as anything but a
 * parameter.
 */
@WebServlet("/forms/top-ups")
public class TopUpServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Inject
    transient TopUps topUps;

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        OptionalLong account = TopUps.amount(request.getParameter("account"));
        OptionalLong amount = TopUps.amount(request.getParameter("amount"));
        OptionalLong balance = account.isPresent() && amount.isPresent()
                ? topUps.credit(account.getAsLong(), amount.getAsLong())
                : OptionalLong.empty();
        if (!balance.isPresent()) {
            response.sendError(400, "post an existing account number and an amount from 1 to 1000000");
            return;
        }
        request.setAttribute("balance", balance.getAsLong());
        request.getRequestDispatcher("/forms/topped-up.jsp").forward(request, response);
    }
}
