/**
 * Public API. Every type in this package is part of the surface applications and operators may rely on:
 *
 * <ul>
 *   <li>{@link dev.idempotency.IdempotencyFilter}, its settings (documented on the class and in {@code
 *       docs/configuration.md}) and the {@code WEB-INF/idempotency.properties} file that installs it;
 *   <li>{@link dev.idempotency.IdempotencyInitializer}, which installs and checks the filter at start-up;
 *   <li>{@link dev.idempotency.IdempotencyAdminServlet}, the operators' switchboard for rollout modes;
 *   <li>{@link dev.idempotency.IdempotencyRecords}, which erases the records of one caller;
 *   <li>{@link dev.idempotency.IdempotentExecution}, the application's view of the record it runs under (also
 *       injectable with the {@code idempotency-cdi} jar), and {@link dev.idempotency.DerivedKeyClientFilter},
 *       which puts keys derived from it on the application's outbound calls;
 *   <li>{@link dev.idempotency.IdempotencyOpenApiFilter}, which the application names in {@code mp.openapi.filter}
 *       to show the filter in its OpenAPI document ({@code docs/openapi.md});
 *   <li>the exceptions, all under {@link dev.idempotency.IdempotencyException}.
 * </ul>
 *
 * <p>Each package's own {@code package-info} says whether it is public API, public API in part (naming the types)
 * or internal, in its first words; {@code ApiBoundaryTest} reads those words, so this is the one statement of the
 * API. Besides this package, public types live in {@link dev.idempotency.consumer}, {@link
 * dev.idempotency.forms}, {@link dev.idempotency.rollout} and {@link dev.idempotency.store}; every other package is internal, public only so that
 * the library's own packages (and the store check and the adopt command) can use it, and may change in any
 * release. {@code ApiBoundaryTest} also holds the line that no API type exposes an internal one.
 *
 * <p>Public without being types: the tables (DDL in {@code META-INF/idempotency/}), the problem {@code type} URIs
 * ({@code docs/errors.md}), and the metric names, tags and JMX attributes ({@code docs/operations.md}).
 */
package dev.idempotency;
