/**
 * Public API in part: the JPA mapping {@link dev.idempotency.store.RequestResult} and its id {@link
 * dev.idempotency.store.RequestResultId}, for applications that read records with JPA in a unit whose schema
 * generation is off. Internal: {@link dev.idempotency.store.RequestResultStore} and its value types, which may
 * change in any release.
 */
package dev.idempotency.store;
