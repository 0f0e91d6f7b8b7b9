/**
 * Internal: what the admin servlet ({@code dev.idempotency.IdempotencyAdminServlet}) shows and does, apart from
 * HTTP: the report of every covered operation, the readiness page and its chart, the mode switch and its CSRF
 * token. May change in any release.
 */
package dev.idempotency.admin;
