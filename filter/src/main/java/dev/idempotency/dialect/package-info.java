/**
 * Internal: the SQL each supported database engine runs, and how its error codes read. May change in any
 * release.
 */
package dev.idempotency.dialect;
