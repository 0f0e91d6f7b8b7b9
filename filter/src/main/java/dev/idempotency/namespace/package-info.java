/**
 * Internal: the two Servlet namespaces ({@code jakarta.servlet} and {@code javax.servlet}) and the jar built for
 * each: what tells them apart, and the initializer that refuses the jar built for the other one. The adopt command
 * uses these types; no application should. May change in any release.
 */
package dev.idempotency.namespace;
