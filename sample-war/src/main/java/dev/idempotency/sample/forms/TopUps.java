package dev.idempotency.sample.forms;

import dev.idempotency.sample.Account;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.OptionalLong;

/**
 * The effect behind the sample's browser forms: a top-up credits a prepaid account, which any visitor may do
 * (a guest checkout). It knows nothing of idempotency keys; {@code @Transactional} joins the idempotency filter's
 * transaction when the filter began one.
 */
@ApplicationScoped
public class TopUps {
    @PersistenceContext(unitName = "sample")
    EntityManager entityManager;

    /** @return the account's new balance, or empty if there is no such account */
    @Transactional
    public OptionalLong credit(long accountId, long amount) {
        Account account = entityManager.find(Account.class, accountId, LockModeType.PESSIMISTIC_WRITE);
        if (account == null) {
            return OptionalLong.empty();
        }
        account.credit(amount);
        return OptionalLong.of(account.balance());
    }

    /** A whole number from 1 to 1,000,000, or empty for anything else a form may post. */
    public static OptionalLong amount(String text) {
        try {
            long amount = Long.parseLong(text == null ? "" : text.trim());
            return amount > 0 && amount <= 1_000_000 ? OptionalLong.of(amount) : OptionalLong.empty();
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
