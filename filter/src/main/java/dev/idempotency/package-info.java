/**
 * The public surface of the library, the part applications and operators may rely on:
 *
 * <ul>
 *   <li>{@link dev.idempotency.IdempotencyFilter}, its settings (documented on the class and in {@code
 *       docs/configuration.md}) and the {@code WEB-INF/idempotency.properties} file that installs it;
 *   <li>{@link dev.idempotency.IdempotencyInitializer}, which installs and checks the filter at start-up;
 *   <li>{@link dev.idempotency.IdempotencyAdminServlet}, the operators' switchboard for rollout modes;
 *   <li>{@link dev.idempotency.IdempotentExecution}, the application's view of the record it runs under (also
 *       injectable with the {@code idempotency-cdi} jar), and {@link dev.idempotency.DerivedKeyClientFilter},
 *       which puts keys derived from it on the application's outbound calls;
 *   <li>{@link dev.idempotency.IdempotencyOpenApiFilter}, which the application names in {@code mp.openapi.filter}
 *       to show the filter in its OpenAPI document ({@code docs/openapi.md});
 *   <li>the exceptions, all under {@link dev.idempotency.IdempotencyException};
 *   <li>the idempotent consumer in {@link dev.idempotency.consumer}, the {@link dev.idempotency.rollout.RolloutMode}
 *       values, and the record's JPA mapping {@link dev.idempotency.store.RequestResult};
 *   <li>the tables (DDL in {@code META-INF/idempotency/}) and the problem {@code type} URIs ({@code
 *       docs/errors.md}).
 * </ul>
 *
 * <p>Every other public type, in {@code buffer}, {@code canonical}, {@code config}, {@code core}, {@code
 * dialect}, {@code metrics}, {@code openapi}, {@code rollout} (but {@code RolloutMode}), {@code runtime}, {@code
 * servlet}, {@code store} (but the entity and its id) and {@code tx}, is public only so that the library's own
 * packages (and the store check and the adopt command) can use it; it may change in any release. {@code
 * ApiBoundaryTest} holds the line: no API type exposes one of them.
 */
package dev.idempotency;
