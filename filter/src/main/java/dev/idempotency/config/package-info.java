/**
 * Internal: parsing and validating the filter's settings. The settings themselves are public, documented on
 * {@link dev.idempotency.IdempotencyFilter} and in {@code docs/configuration.md}; these classes may change in
 * any release.
 */
package dev.idempotency.config;
