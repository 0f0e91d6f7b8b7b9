package dev.idempotency.servlet;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** Servlet stream test doubles. */
final class TestStreams {
    private TestStreams() {}

    /** A request body read the blocking way, as the filter reads it; the non-blocking methods are not used. */
    abstract static class BlockingInput extends ServletInputStream {
        @Override
        public boolean isFinished() {
            return false;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            throw new UnsupportedOperationException();
        }
    }

    /** A request body stream over these bytes. */
    static ServletInputStream input(byte[] bytes) {
        ByteArrayInputStream in = new ByteArrayInputStream(bytes);
        return new BlockingInput() {
            @Override
            public int read() {
                return in.read();
            }

            @Override
            public int read(byte[] b, int off, int len) {
                return in.read(b, off, len);
            }

            @Override
            public boolean isFinished() {
                return in.available() == 0;
            }
        };
    }

    /** A request body whose client goes away after {@code bytes}: the container's read then fails. */
    static ServletInputStream abortedAfter(byte[] bytes) {
        ServletInputStream delivered = input(bytes);
        return new BlockingInput() {
            @Override
            public int read() throws IOException {
                return read(new byte[1], 0, 1);
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = delivered.read(b, off, len);
                if (n == -1) {
                    throw new IOException("connection closed by peer");
                }
                return n;
            }
        };
    }

    /** A request body stream that fails the test if anything reads it. */
    static ServletInputStream unreadable() {
        return new ServletInputStream() {
            @Override
            public int read() {
                throw new AssertionError("the body must not be read");
            }

            @Override
            public int read(byte[] b, int off, int len) {
                throw new AssertionError("the body must not be read");
            }

            @Override
            public boolean isFinished() {
                throw new AssertionError("the body must not be read");
            }

            @Override
            public boolean isReady() {
                throw new AssertionError("the body must not be read");
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new AssertionError("the body must not be read");
            }
        };
    }

    /** A response body stream that writes into {@code sink}. */
    static ServletOutputStream output(ByteArrayOutputStream sink) {
        return new ServletOutputStream() {
            @Override
            public void write(int b) {
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                sink.write(b, off, len);
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
                throw new UnsupportedOperationException();
            }
        };
    }
}
