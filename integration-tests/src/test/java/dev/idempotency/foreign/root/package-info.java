/**
 * A JSON API served at its context root: a JAX-RS application at {@code @ApplicationPath("")} whose one
 * resource, {@code @Path("")}, is a {@code @Stateless} EJB writing through a JTA persistence unit with
 * {@code create} schema generation, and no login (a gateway in front of it authenticates callers). Its
 * operation is {@code POST /}.
 */
package dev.idempotency.foreign.root;
