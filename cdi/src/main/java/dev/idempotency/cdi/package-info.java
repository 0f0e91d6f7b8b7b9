/**
 * The filter's {@link dev.idempotency.IdempotentExecution} as a CDI bean, for applications that use CDI.
 *
 * <p>This is a jar of its own, not part of the filter's, because what makes a library visible to CDI also turns CDI
 * on for an application that did not use it: on WildFly a bean archive (a bean-defining annotation, or a {@code
 * beans.xml} whose discovery mode is not {@code none}) marks the whole deployment for Weld; on Open Liberty an
 * archive that declares a portable extension in {@code META-INF/services} enables CDI for the application even
 * without any bean. The filter's jar has neither, so applications without CDI stay exactly as they were.
 */
package dev.idempotency.cdi;
