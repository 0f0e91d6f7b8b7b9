/**
 * A payments-style API in the shape Stripe's is, for the SDKs written against it: {@code POST /v1/customers} takes a
 * form-encoded body ({@code name}, {@code email}), authenticates the caller by its API key in {@code Authorization:
 * Bearer}, writes one customer with plain JDBC on the container's datasource (its JNDI name in a context parameter),
 * and answers with the customer as JSON, its {@code id} prefixed {@code cus_}. It checks API keys itself, so it has
 * no container principal.
 */
package dev.idempotency.foreign.customers;
