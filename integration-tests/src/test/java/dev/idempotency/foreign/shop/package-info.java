/**
 * A front controller, as web shops were written before JAX-RS: one servlet at {@code /app}, declared in
 * web.xml behind BASIC login, serves every action, chosen by the form field {@code action} ({@code login},
 * {@code quote}, {@code buy}, {@code logout}); the login is kept in the HTTP session, orders are written with
 * plain JDBC on the container's datasource (its JNDI name in a context parameter), and every page is a JSP
 * included after the servlet has set the content type. Only {@code buy} has an effect.
 */
package dev.idempotency.foreign.shop;
