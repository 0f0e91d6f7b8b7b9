/**
 * Public API in part: {@link dev.idempotency.rollout.RolloutMode}, whose values are the modes operators set ({@code
 * docs/rollout.md}). Internal: the mode cache and the keyless counters, which may change in any release.
 */
package dev.idempotency.rollout;
