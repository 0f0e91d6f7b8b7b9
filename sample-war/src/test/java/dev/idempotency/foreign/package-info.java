/**
 * Two small applications written as if by another team, which know nothing about the idempotency filter:
 * the container tests adopt the filter in them by adding only its jar and a settings file, and check that
 * everything the filter does not cover behaves exactly as before. Nothing here may import {@code
 * dev.idempotency} classes outside this package.
 */
package dev.idempotency.foreign;
