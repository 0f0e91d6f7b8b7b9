/**
 * Two applications that call each other, each covered by the filter: the caller writes an order to its own table,
 * asks the callee for an effect over HTTP with a key derived from its own ({@code DerivedKeyClientFilter}), and,
 * when asked to, fails after the call on its first attempt, so that its order rolls back while the callee's effect
 * stays. Used by {@code ExternalEffectsIT}.
 */
package dev.idempotency.sample.calls;
