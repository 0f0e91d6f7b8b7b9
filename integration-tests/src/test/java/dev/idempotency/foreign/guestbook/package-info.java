/**
 * The smallest application the filter can protect: one servlet writing with plain JDBC on the server's
 * datasource, in the transaction the filter begins, with no CDI, JPA or JAX-RS. It runs on {@code servlet-6.0}
 * and {@code jdbc-4.3} alone, and its operation is {@code POST /sign}.
 */
package dev.idempotency.foreign.guestbook;
