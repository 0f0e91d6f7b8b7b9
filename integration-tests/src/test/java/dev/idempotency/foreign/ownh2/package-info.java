/**
 * An application that brings its own database: an in-memory H2 defined with {@code @DataSourceDefinition}
 * (the driver in {@code WEB-INF/lib}), its table created by a listener at start-up, and a servlet that
 * writes with plain JDBC. No migration tool can reach such a database from outside the server. No login: a
 * gateway in front of it authenticates callers.
 */
package dev.idempotency.foreign.ownh2;
