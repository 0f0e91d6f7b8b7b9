/**
 * Internal: the servlet-side pieces of the request path (body buffering, response capture, problem responses,
 * the key header). The problem {@code type} URIs they send are public ({@code docs/errors.md}); the classes may
 * change in any release.
 */
package dev.idempotency.servlet;
