/**
 * Servlets that manage their own transactions, as much pre-EJB code does: {@code /transfer} takes a
 * connection from the container's datasource (its JNDI name in a context parameter), turns auto-commit off,
 * inserts and commits itself; {@code /settle} begins and commits its own {@code UserTransaction}. Both wrap
 * every failure in a {@code ServletException}. No login: a gateway in front of them authenticates callers.
 */
package dev.idempotency.foreign.selfcommit;
