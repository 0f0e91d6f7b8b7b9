/**
 * Internal: what one deployed filter runs: its settings from their places, the application's datasource, the
 * runtime the filter, the initializer and the admin servlet share, the persistence-unit rules (which the adopt
 * command applies too), and the scheduled housekeeping (purge, cluster-wide counters). May change in any release.
 */
package dev.idempotency.runtime;
