/**
 * An application in the shape of Open Liberty's {@code guide-jpa-intro}: a JAX-RS resource that is a CDI bean,
 * writing through a request-scoped DAO with {@code @Transactional} and a JTA persistence unit, JSON through
 * JSON-B, no EJB and no login. It runs on the guide's own features (REST, JSON-B, JSON-P, CDI, persistence), and
 * its operation is {@code POST /api/events}.
 */
package dev.idempotency.foreign.events;
