/**
 * Internal: how the filter holds a body in memory, the request body it buffers and the response it captures, in
 * segments that the garbage collector stores without waste ({@link dev.idempotency.buffer.SegmentedBuffer}). May
 * change in any release.
 */
package dev.idempotency.buffer;
