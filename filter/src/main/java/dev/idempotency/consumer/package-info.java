/**
 * Public API. The idempotent consumer, {@link dev.idempotency.consumer.ProcessedMessages}, for message-driven beans
 * that must apply each message once ({@code docs/consumer.md}).
 */
package dev.idempotency.consumer;
