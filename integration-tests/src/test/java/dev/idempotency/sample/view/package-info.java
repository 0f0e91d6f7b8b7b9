/**
 * The application's view of its key, from both kinds of application: a CDI application (JAX-RS resources and an
 * application-scoped bean, {@code beans.xml}, and the {@code idempotency-cdi} jar) that injects {@code
 * IdempotentExecution}, and a plain servlet application without CDI that reads the request attribute and reports
 * whether CDI is on for it. Used by {@code ApplicationViewIT}.
 */
package dev.idempotency.sample.view;
