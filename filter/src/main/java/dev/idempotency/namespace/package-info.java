/**
 * The two Servlet namespaces ({@code jakarta.servlet} and {@code javax.servlet}) and the jar built for each: what
 * tells them apart, and the initializer that refuses the jar built for the other one.
 */
package dev.idempotency.namespace;
