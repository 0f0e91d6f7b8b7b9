package dev.idempotency.foreign.inventory;

import jakarta.ejb.Stateless;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.util.List;

/** Container-managed transactions: each call joins the caller's transaction, or starts its own. */
@Stateless
public class ItemService {
    @PersistenceContext
    EntityManager entityManager;

    public Item add(String name, int quantity) {
        Item item = new Item();
        item.name = name;
        item.quantity = quantity;
        entityManager.persist(item);
        entityManager.flush();
        return item;
    }

    public List<Item> all() {
        return entityManager
                .createQuery("SELECT i FROM Item i ORDER BY i.id", Item.class)
                .getResultList();
    }
}
