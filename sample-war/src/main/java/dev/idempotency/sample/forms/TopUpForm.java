package dev.idempotency.sample.forms;

import jakarta.enterprise.context.RequestScoped;
import jakarta.faces.context.ExternalContext;
import jakarta.faces.context.FacesContext;
import jakarta.faces.event.AjaxBehaviorEvent;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * The Faces form's bean ({@code forms/top-up.xhtml} and {@code forms/top-up-viewstate.xhtml}): it credits the
 * account and answers with a redirect to the result (Post/Redirect/Get), which the filter stores and replays for
 * a repeated post of the same render.
 */
@Named("topUp")
@RequestScoped
public class TopUpForm {
    @Inject
    TopUps topUps;

    private String account;
    private String amount;
    private String message;

    public void submit() throws IOException {
        OptionalLong accountId = TopUps.amount(account);
        OptionalLong credit = TopUps.amount(amount);
        OptionalLong balance = accountId.isPresent() && credit.isPresent()
                ? topUps.credit(accountId.getAsLong(), credit.getAsLong())
                : OptionalLong.empty();
        if (!balance.isPresent()) {
            message = "Enter an existing account number and an amount from 1 to 1000000.";
            return;
        }
        ExternalContext external = FacesContext.getCurrentInstance().getExternalContext();
        external.redirect(external.getRequestContextPath() + "/forms/topped-up.jsp?account=" + accountId.getAsLong()
                + "&balance=" + balance.getAsLong());
    }

    /**
     * An Ajax check that re-renders the form, as forms that validate as the user types do. It takes the event, as
     * MyFaces requires of an Ajax listener (Mojarra also calls a method without it).
     */
    public void check(AjaxBehaviorEvent event) {
        message = TopUps.amount(amount).isPresent() ? "Amount looks fine." : "Enter an amount from 1 to 1000000.";
    }

    public String getAccount() {
        return account;
    }

    public void setAccount(String account) {
        this.account = account;
    }

    public String getAmount() {
        return amount;
    }

    public void setAmount(String amount) {
        this.amount = amount;
    }

    public String getMessage() {
        return message;
    }
}
