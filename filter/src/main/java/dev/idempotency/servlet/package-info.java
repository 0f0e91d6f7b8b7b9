/**
 * Internal: the HTTP entry point: the request handler that adapts a covered request to the core and its
 * decision to one reply, and its pieces (body buffering, response capture, problem responses, the key header). The problem {@code type} URIs they send are public ({@code docs/errors.md}); the classes may
 * change in any release.
 */
package dev.idempotency.servlet;
