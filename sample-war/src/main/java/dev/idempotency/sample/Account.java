package dev.idempotency.sample;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An account owned by one authenticated user. */
@Entity
@Table(name = "account")
public class Account {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false)
    private String owner;

    @Column(nullable = false)
    private long balance;

    protected Account() {}

    public Account(String owner, long balance) {
        this.owner = owner;
        this.balance = balance;
    }

    public Long id() {
        return id;
    }

    public boolean isOwnedBy(String user) {
        return owner.equals(user);
    }

    public long balance() {
        return balance;
    }

    public void credit(long amount) {
        balance = Math.addExact(balance, amount);
    }

    /** Takes {@code amount} off the balance, or returns false if the balance is too small. */
    public boolean debit(long amount) {
        if (amount > balance) {
            return false;
        }
        balance -= amount;
        return true;
    }
}
