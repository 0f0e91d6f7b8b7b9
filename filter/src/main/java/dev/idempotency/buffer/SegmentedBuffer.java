package dev.idempotency.buffer;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A body held in memory in segments of at most {@value #MAX_SEGMENT_BYTES} bytes: the request body the filter
 * buffers and the response it captures, both held while the application runs.
 *
 * <p>Why segments, not one growing array: the JVM's default collector, G1, puts every object of half a heap
 * region or more in regions of its own, rounded up to whole regions, and its smallest region is 1 MiB. A body of
 * exactly 1 MiB in one array (plus the array's header) took two regions, 2 MiB of heap, and a {@code
 * ByteArrayOutputStream} doubles its array (to twice the body at worst), copying on every doubling and once more
 * for {@code toByteArray()}. Segments of 64 KiB are ordinary objects: the heap holds the bytes and at most one
 * partly filled segment, and nothing is copied as the buffer grows. 64 KiB is also the most a buffer allocates
 * ahead of the bytes written to it.
 *
 * <p>Not thread-safe.
 */
public final class SegmentedBuffer {
    /** Far below half of G1's smallest region (512 KiB), so no segment is ever placed in a region of its own. */
    static final int MAX_SEGMENT_BYTES = 64 * 1024;

    private final int firstSegmentBytes;
    private final List<byte[]> segments = new ArrayList<>();
    /** How many bytes of the last segment hold data; the rest of it is free. */
    private int usedInLast;

    private int size;

    /**
     * @param firstSegmentBytes the size of the first segment, clamped to 1 … {@value #MAX_SEGMENT_BYTES}; each
     *     next one is twice the previous, up to {@value #MAX_SEGMENT_BYTES}
     */
    public SegmentedBuffer(int firstSegmentBytes) {
        this.firstSegmentBytes = Math.max(1, Math.min(firstSegmentBytes, MAX_SEGMENT_BYTES));
    }

    /**
     * A buffer that holds these bytes as they are, in one segment and not copied, whatever their length: for
     * bodies that already are one array (a message payload), so they take the same path as buffered ones. The
     * array must not change afterwards.
     */
    public static SegmentedBuffer of(byte[] bytes) {
        SegmentedBuffer buffer = new SegmentedBuffer(MAX_SEGMENT_BYTES);
        if (bytes.length > 0) {
            buffer.segments.add(bytes);
            buffer.usedInLast = bytes.length;
            buffer.size = bytes.length;
        }
        return buffer;
    }

    /** Appends {@code length} bytes of {@code bytes} from {@code offset}. */
    public void write(byte[] bytes, int offset, int length) {
        if (length > Integer.MAX_VALUE - size) {
            // Where ByteArrayOutputStream gave up too: the bytes could never become one array.
            throw new OutOfMemoryError("a buffered body cannot exceed " + Integer.MAX_VALUE + " bytes");
        }
        int written = 0;
        while (written < length) {
            if (segments.isEmpty() || usedInLast == last().length) {
                segments.add(new byte[nextSegmentBytes()]);
                usedInLast = 0;
            }
            int n = Math.min(length - written, last().length - usedInLast);
            System.arraycopy(bytes, offset + written, last(), usedInLast, n);
            usedInLast += n;
            written += n;
        }
        size += length;
    }

    /** The number of bytes held. */
    public int size() {
        return size;
    }

    /**
     * Lets go of every byte held. Segments are never reused, because an array handed out by {@link #asOneArray()}
     * may be one of them.
     */
    public void clear() {
        segments.clear();
        usedInLast = 0;
        size = 0;
    }

    /**
     * A stream over the bytes held, from the first; each call gives a new one. It reads the segments in place, so
     * the buffer must not change (no write, {@link #clear()} or {@link #asOneArray()}) while a stream is in use.
     */
    public SegmentStream newInputStream() {
        return new SegmentStream();
    }

    /** A new array with a copy of the bytes held; the buffer keeps its segments. */
    public byte[] toByteArray() {
        byte[] copy = new byte[size];
        int at = 0;
        for (int i = 0; i < segments.size(); i++) {
            int n = used(i);
            System.arraycopy(segments.get(i), 0, copy, at, n);
            at += n;
        }
        return copy;
    }

    /**
     * The bytes held, as one array of exactly their length, which from then on is this buffer's one segment, so
     * that asking again returns the same array. Each segment is let go as soon as it is copied, so the bytes are
     * never held twice over; bytes already held as one exact array are returned as they are. Bytes written later
     * go to new segments, never into the returned array.
     */
    public byte[] asOneArray() {
        if (segments.size() == 1 && last().length == size) {
            return last();
        }
        byte[] joined = new byte[size];
        int at = 0;
        for (int i = 0; i < segments.size(); i++) {
            int n = used(i);
            System.arraycopy(segments.get(i), 0, joined, at, n);
            segments.set(i, null);
            at += n;
        }
        segments.clear();
        if (size > 0) {
            segments.add(joined);
        }
        usedInLast = size;
        return joined;
    }

    /** The length of each segment, allocated or handed in, in order. For tests that check how the bytes are held. */
    List<Integer> segmentLengths() {
        return segments.stream().map(segment -> segment.length).collect(Collectors.toList());
    }

    private byte[] last() {
        return segments.get(segments.size() - 1);
    }

    /** How many bytes of segment {@code index} hold data: all of it, but for the last. */
    private int used(int index) {
        return index == segments.size() - 1 ? usedInLast : segments.get(index).length;
    }

    private int nextSegmentBytes() {
        if (segments.isEmpty()) {
            return firstSegmentBytes;
        }
        return (int) Math.min(2L * last().length, MAX_SEGMENT_BYTES);
    }

    /** Reads the segments in order, as one stream; reading it never fails, so nothing it declares throws. */
    public final class SegmentStream extends InputStream {
        private int segment;
        private int position;
        private int consumed;

        private SegmentStream() {}

        @Override
        public int read() {
            if (!advanceToData()) {
                return -1;
            }
            consumed++;
            return segments.get(segment)[position++] & 0xFF;
        }

        @Override
        public int read(byte[] into, int offset, int length) {
            if (offset < 0 || length < 0 || length > into.length - offset) {
                throw new IndexOutOfBoundsException(
                        "offset " + offset + ", length " + length + ", array length " + into.length);
            }
            // The end first, then an empty read: ByteArrayInputStream's order, which the application's stream had.
            if (!advanceToData()) {
                return -1;
            }
            if (length == 0) {
                return 0;
            }
            int n = Math.min(length, used(segment) - position);
            System.arraycopy(segments.get(segment), position, into, offset, n);
            position += n;
            consumed += n;
            return n;
        }

        @Override
        public int available() {
            return size - consumed;
        }

        /** Moves past whole segments at once, so a part of a multipart body is reached without reading up to it. */
        @Override
        public long skip(long count) {
            long left = Math.max(0, Math.min(count, (long) size - consumed));
            long skipped = left;
            while (left > 0 && advanceToData()) {
                int n = (int) Math.min(left, used(segment) - position);
                position += n;
                consumed += n;
                left -= n;
            }
            return skipped;
        }

        /** Moves past exhausted segments; false at the end of the bytes. */
        private boolean advanceToData() {
            while (segment < segments.size() && position == used(segment)) {
                segment++;
                position = 0;
            }
            return segment < segments.size();
        }
    }
}
