/** Internal: the JTA transaction the filter owns for one request. May change in any release. */
package dev.idempotency.tx;
