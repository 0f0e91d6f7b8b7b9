package dev.idempotency.foreign.ledger;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One ledger entry, owned by the user who posted it. */
@Entity
@Table(name = "ledger_entry")
public class Entry {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String owner;

    public long amount;

    /** Usually null: JSON-B leaves null members out, Jackson would print them. */
    public String memo;
}
