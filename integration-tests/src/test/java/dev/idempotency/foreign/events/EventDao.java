package dev.idempotency.foreign.events;

import jakarta.enterprise.context.RequestScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;

/** The guide's data access object: a request-scoped bean with the container's entity manager. */
@RequestScoped
public class EventDao {
    @PersistenceContext
    EntityManager entityManager;

    public void create(Event event) {
        entityManager.persist(event);
        entityManager.flush();
    }

    public long count() {
        return entityManager
                .createQuery("SELECT COUNT(e) FROM Event e", Long.class)
                .getSingleResult();
    }
}
