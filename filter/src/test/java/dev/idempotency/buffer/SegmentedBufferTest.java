package dev.idempotency.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmentedBufferTest {
    private static final int MIB = 1024 * 1024;

    private static byte[] counting(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }

    private static SegmentedBuffer written(byte[] bytes, int firstSegmentBytes, int piece) {
        SegmentedBuffer buffer = new SegmentedBuffer(firstSegmentBytes);
        for (int at = 0; at < bytes.length; at += piece) {
            buffer.write(bytes, at, Math.min(piece, bytes.length - at));
        }
        return buffer;
    }

    @Test
    void holdsWhatWasWrittenInOrder() throws Exception {
        byte[] bytes = counting(300_000);

        SegmentedBuffer buffer = written(bytes, 1024, 8192);

        assertEquals(bytes.length, buffer.size());
        assertArrayEquals(bytes, buffer.toByteArray());
        try (InputStream in = buffer.newInputStream()) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
    }

    /**
     * G1 puts an object of half a region or more (512 KiB at the smallest region) in whole regions of its own: a 1
     * MiB array took 2 MiB of heap. A 1 MiB body is held in ordinary objects instead.
     */
    @Test
    void aLargeBodyIsHeldInSegmentsTooSmallForARegionOfTheirOwn() {
        SegmentedBuffer buffer = written(counting(MIB), 64 * 1024, 8192);

        List<Integer> lengths = buffer.segmentLengths();
        assertTrue(Collections.max(lengths) <= 64 * 1024, lengths.toString());
        assertEquals(MIB, lengths.stream().mapToInt(Integer::intValue).sum(), "allocated beyond the body");
    }

    @Test
    void segmentsGrowFromTheFirstSizeByDoublingUpToTheMaximum() {
        SegmentedBuffer buffer = written(counting(200_000), 1024, 1);

        assertEquals(
                List.of(1024, 2048, 4096, 8192, 16384, 32768, 65536, 65536),
                buffer.segmentLengths().subList(0, 8));
    }

    @Test
    void nothingIsAllocatedBeforeBytesArrive() {
        SegmentedBuffer buffer = new SegmentedBuffer(64 * 1024);
        buffer.write(new byte[0], 0, 0);

        assertEquals(List.of(), buffer.segmentLengths());
    }

    @Test
    void asOneArrayJoinsTheSegmentsIntoTheOneArrayItKeeps() {
        byte[] bytes = counting(200_000);
        SegmentedBuffer buffer = written(bytes, 1024, 5000);

        byte[] joined = buffer.asOneArray();

        assertArrayEquals(bytes, joined);
        assertEquals(List.of(bytes.length), buffer.segmentLengths());
        assertSame(joined, buffer.asOneArray(), "joined a second time");
    }

    @Test
    void bytesHandedInAsOneArrayAreNeitherCopiedNorJoinedAgain() {
        byte[] bytes = counting(MIB);

        SegmentedBuffer buffer = SegmentedBuffer.of(bytes);

        assertSame(bytes, buffer.asOneArray());
        assertEquals(MIB, buffer.size());
    }

    @Test
    void aSegmentExactlyFullIsHandedOutWithoutACopy() {
        SegmentedBuffer buffer = new SegmentedBuffer(4);
        buffer.write(new byte[] {1, 2, 3, 4}, 0, 4);

        byte[] first = buffer.asOneArray();

        assertArrayEquals(new byte[] {1, 2, 3, 4}, first);
        assertSame(first, buffer.asOneArray());
    }

    @Test
    void bytesWrittenAfterAsOneArrayNeverChangeTheArrayHandedOut() {
        SegmentedBuffer buffer = written(counting(1000), 1024, 100);
        byte[] handedOut = buffer.asOneArray();
        byte[] before = handedOut.clone();

        buffer.write(new byte[] {9, 9, 9}, 0, 3);
        byte[] grown = buffer.asOneArray();
        buffer.clear();
        buffer.write(new byte[2000], 0, 2000);

        assertArrayEquals(before, handedOut);
        assertNotSame(handedOut, grown);
        assertEquals(1003, grown.length);
        assertArrayEquals(new byte[] {9, 9, 9}, Arrays.copyOfRange(grown, 1000, 1003));
    }

    @Test
    void toByteArrayCopiesAndKeepsTheSegments() {
        SegmentedBuffer buffer = written(counting(100_000), 1024, 7000);
        List<Integer> before = buffer.segmentLengths();

        byte[] copy = buffer.toByteArray();

        assertNotSame(copy, buffer.toByteArray());
        assertEquals(before, buffer.segmentLengths());
    }

    @Test
    void clearLetsGoOfEverything() throws Exception {
        SegmentedBuffer buffer = written(counting(10_000), 1024, 100);

        buffer.clear();

        assertEquals(0, buffer.size());
        assertEquals(List.of(), buffer.segmentLengths());
        assertEquals(-1, buffer.newInputStream().read());
        assertArrayEquals(new byte[0], buffer.asOneArray());
    }

    @Test
    void aStreamReadsByteByByteAcrossSegmentsAndCountsWhatIsLeft() throws Exception {
        byte[] bytes = counting(5000);
        SegmentedBuffer buffer = written(bytes, 1, 3);
        InputStream in = buffer.newInputStream();

        for (int i = 0; i < bytes.length; i++) {
            assertEquals(bytes.length - i, in.available());
            assertEquals(bytes[i] & 0xFF, in.read());
        }
        assertEquals(0, in.available());
        assertEquals(-1, in.read());
        assertEquals(-1, in.read(new byte[10], 0, 10));
    }

    @Test
    void anEmptyReadAnswersAsByteArrayInputStreamDoes() throws Exception {
        SegmentedBuffer buffer = written(counting(10), 4, 3);
        InputStream in = buffer.newInputStream();

        assertEquals(0, in.read(new byte[10], 0, 0));
        in.readAllBytes();
        assertEquals(-1, in.read(new byte[10], 0, 0));
    }

    @Test
    void eachStreamStartsFromTheFirstByte() throws Exception {
        SegmentedBuffer buffer = written(counting(100), 16, 10);
        InputStream first = buffer.newInputStream();
        first.readNBytes(60);

        assertArrayEquals(counting(100), buffer.newInputStream().readAllBytes());
        assertEquals(40, first.readAllBytes().length);
    }
}
