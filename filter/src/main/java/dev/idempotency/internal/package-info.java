/**
 * Internal: holds only the bundled, relocated Jackson ({@code dev.idempotency.internal.jackson}), which no
 * application may use. May change in any release.
 */
package dev.idempotency.internal;
