/**
 * Internal: the canonical form of a request (method, operation, path, query and body) that decides whether a
 * retry is the same request. The rules are documented for users in {@code docs/configuration.md}; the classes
 * may change in any release.
 */
package dev.idempotency.canonical;
