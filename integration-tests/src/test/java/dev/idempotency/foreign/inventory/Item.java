package dev.idempotency.foreign.inventory;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

/** An inventory item; its table comes from the unit's drop-and-create schema generation. */
@Entity
public class Item {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(length = 4000)
    public String name;

    public int quantity;

    /** Usually null: JSON-B leaves null members out. */
    public String note;
}
