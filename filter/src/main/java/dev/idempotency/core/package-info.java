/**
 * Internal: the servlet-free core every entry point runs an attempt through ({@link
 * dev.idempotency.core.IdempotentExecutor}): claim, then replay, refuse or execute, then store and commit, in one
 * transaction. May change in any release.
 */
package dev.idempotency.core;
