package dev.idempotency.canonical;

import dev.idempotency.buffer.SegmentedBuffer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A {@code multipart/form-data} body (RFC 7578) read strictly where it lies: the parts are found in one pass over
 * the buffered body and each is kept as its headers and the place of its bytes, so no copy of the body is made.
 * Anything RFC 7578 and RFC 2046 do not allow (no boundary, a bare LF where CRLF belongs, a part without {@code
 * Content-Disposition: form-data; name=...}, a missing final boundary, header text that is not UTF-8) makes the
 * body not a form at all: {@link #parse} is then empty, and the body is compared as opaque bytes, like a JSON body
 * that does not parse.
 *
 * <p>Quoted parameter values end at the next {@code "}, with no escapes: the HTML standard has browsers send a
 * {@code "} in a name or file name as {@code %22}, and a backslash as itself.
 *
 * <p>Immutable; the buffer must not change while it is read.
 */
public final class MultipartForm {
    private static final String MEDIA_TYPE = "multipart/form-data";
    /** RFC 2046's {@code bchars}: what a boundary may consist of (it must not end with a space). */
    private static final String BOUNDARY_CHARS =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ";

    private final List<Part> parts;

    private MultipartForm(List<Part> parts) {
        this.parts = Collections.unmodifiableList(parts);
    }

    /** Whether a body of this content type is a {@code multipart/form-data} body. */
    public static boolean isMultipart(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.trim().toLowerCase(Locale.ROOT).equals(MEDIA_TYPE);
    }

    /**
     * @param contentType the request's content type, which must name the boundary
     * @return the parts in the order sent, or empty if the content type or the body is not a well-formed form
     */
    public static Optional<MultipartForm> parse(String contentType, SegmentedBuffer body) {
        if (!isMultipart(contentType)) {
            return Optional.empty();
        }
        Optional<String> boundary = boundary(contentType);
        if (!boundary.isPresent()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new MultipartForm(new Parser(body, boundary.get()).parts()));
        } catch (MalformedException e) {
            return Optional.empty();
        }
    }

    /** The parts in the order sent. */
    public List<Part> parts() {
        return parts;
    }

    private static Optional<String> boundary(String contentType) {
        int semicolon = contentType.indexOf(';');
        if (semicolon < 0) {
            return Optional.empty();
        }
        Optional<Map<String, String>> parameters = parameters(contentType.substring(semicolon));
        String boundary = parameters.isPresent() ? parameters.get().get("boundary") : null;
        if (boundary == null
                || boundary.isEmpty()
                || boundary.length() > 70
                || boundary.endsWith(" ")
                || !boundary.chars().allMatch(c -> BOUNDARY_CHARS.indexOf(c) >= 0)) {
            return Optional.empty();
        }
        return Optional.of(boundary);
    }

    /**
     * The {@code ; name=value} parameters of a header value, names lower-cased, after its first word; empty if they
     * do not parse or a name is repeated.
     */
    private static Optional<Map<String, String>> parameters(String text) {
        Map<String, String> parameters = new LinkedHashMap<>();
        int i = skipSpace(text, 0);
        while (i < text.length()) {
            if (text.charAt(i) != ';') {
                return Optional.empty();
            }
            i = skipSpace(text, i + 1);
            int equals = text.indexOf('=', i);
            if (equals < 0) {
                return Optional.empty();
            }
            String name = text.substring(i, equals).trim().toLowerCase(Locale.ROOT);
            i = skipSpace(text, equals + 1);
            String value;
            if (i < text.length() && text.charAt(i) == '"') {
                int close = text.indexOf('"', i + 1);
                if (close < 0) {
                    return Optional.empty();
                }
                value = text.substring(i + 1, close);
                i = close + 1;
            } else {
                int end = text.indexOf(';', i);
                end = end < 0 ? text.length() : end;
                value = text.substring(i, end).trim();
                i = end;
            }
            if (name.isEmpty() || parameters.put(name, value) != null) {
                return Optional.empty();
            }
            i = skipSpace(text, i);
        }
        return Optional.of(parameters);
    }

    private static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** One part: its headers, and where its bytes lie in the body. */
    public static final class Part {
        private final SegmentedBuffer body;
        private final Map<String, List<String>> headers;
        private final String name;
        private final String fileName;
        private final int offset;
        private final int length;

        private Part(
                SegmentedBuffer body,
                Map<String, List<String>> headers,
                String name,
                String fileName,
                int offset,
                int length) {
            this.body = body;
            this.headers = headers;
            this.name = name;
            this.fileName = fileName;
            this.offset = offset;
            this.length = length;
        }

        /** The {@code name} of its {@code Content-Disposition}. */
        public String name() {
            return name;
        }

        /** The {@code filename} of its {@code Content-Disposition}, present (perhaps empty) for a file part. */
        public Optional<String> fileName() {
            return Optional.ofNullable(fileName);
        }

        /** Its {@code Content-Type} header as sent, or {@code null}. */
        public String contentType() {
            return header("Content-Type");
        }

        /** The first value of a header, by name in any case, or {@code null}. */
        public String header(String name) {
            List<String> values = headers.get(name);
            return values == null ? null : values.get(0);
        }

        /** Its headers, by name in any case, each with its values in the order sent. */
        public Map<String, List<String>> headers() {
            return headers;
        }

        /** The number of bytes of its content. */
        public int size() {
            return length;
        }

        /** A new stream over its content, read where it lies in the body. */
        public InputStream newInputStream() {
            InputStream in = body.newInputStream();
            skipFully(in, offset);
            return new InputStream() {
                private int left = length;

                @Override
                public int read() throws IOException {
                    if (left == 0) {
                        return -1;
                    }
                    left--;
                    return in.read();
                }

                @Override
                public int read(byte[] into, int from, int count) throws IOException {
                    if (left == 0) {
                        return count == 0 ? 0 : -1;
                    }
                    int n = in.read(into, from, Math.min(count, left));
                    if (n > 0) {
                        left -= n;
                    }
                    return n;
                }

                @Override
                public int available() {
                    return left;
                }
            };
        }

        /** A copy of its content. */
        public byte[] bytes() {
            byte[] bytes = new byte[length];
            try (InputStream in = newInputStream()) {
                int at = 0;
                while (at < length) {
                    int n = in.read(bytes, at, length - at);
                    if (n < 0) {
                        throw new IllegalStateException("the body is shorter than a part found in it");
                    }
                    at += n;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("a stream over bytes in memory does not fail", e);
            }
            return bytes;
        }

        /**
         * The charset its {@code Content-Type} names, or {@code fallback} if it names none; empty if it names one
         * this runtime does not know.
         */
        public Optional<Charset> charset(Charset fallback) {
            String type = contentType();
            int semicolon = type == null ? -1 : type.indexOf(';');
            if (semicolon < 0) {
                return Optional.of(fallback);
            }
            Optional<Map<String, String>> parameters = parameters(type.substring(semicolon));
            String charset = parameters.isPresent() ? parameters.get().get("charset") : null;
            if (charset == null) {
                return parameters.isPresent() ? Optional.of(fallback) : Optional.empty();
            }
            try {
                return Optional.of(Charset.forName(charset));
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                return Optional.empty();
            }
        }

        /**
         * Its content as text in the charset of its {@code Content-Type}, UTF-8 if none is named; empty if the bytes
         * are not valid in that charset or the charset is unknown. Bytes are never replaced, or two different values
         * would become one.
         */
        public Optional<String> strictText() {
            Optional<Charset> charset = charset(StandardCharsets.UTF_8);
            return charset.isPresent() ? strictDecode(bytes(), charset.get()) : Optional.empty();
        }

        private static void skipFully(InputStream in, int count) {
            try {
                long left = count;
                while (left > 0) {
                    long skipped = in.skip(left);
                    if (skipped <= 0) {
                        throw new IllegalStateException("the body is shorter than a part found in it");
                    }
                    left -= skipped;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("a stream over bytes in memory does not fail", e);
            }
        }
    }

    static Optional<String> strictDecode(byte[] bytes, Charset charset) {
        try {
            return Optional.of(charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** The body is not a well-formed form; caught in {@link #parse}, never thrown out of this class. */
    private static final class MalformedException extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedException() {
            super(null, null, false, false);
        }
    }

    /** One pass over the body's bytes, counting their positions. */
    private static final class Parser {
        private final SegmentedBuffer body;
        private final SegmentedBuffer.SegmentStream in;
        /** CRLF, two dashes and the boundary: what ends each part's content. */
        private final byte[] delimiter;

        private int position;

        Parser(SegmentedBuffer body, String boundary) {
            this.body = body;
            this.in = body.newInputStream();
            this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        }

        List<Part> parts() throws MalformedException {
            // The first delimiter may open the body, with no CRLF before it: start as if the CRLF had been read.
            // Whatever comes before it is the preamble, which RFC 2046 says to ignore.
            if (findDelimiter(2) < 0) {
                throw new MalformedException();
            }
            List<Part> parts = new ArrayList<>();
            while (true) {
                int next = read();
                if (next == '-') {
                    if (read() != '-') {
                        throw new MalformedException();
                    }
                    // The close delimiter; what follows is the epilogue, which RFC 2046 says to ignore.
                    return parts;
                }
                while (next == ' ' || next == '\t') {
                    next = read();
                }
                if (next != '\r' || read() != '\n') {
                    throw new MalformedException();
                }
                Map<String, List<String>> headers = headers();
                int start = position;
                int end = findDelimiter(0);
                if (end < 0) {
                    throw new MalformedException();
                }
                parts.add(part(headers, start, end - start));
            }
        }

        private Part part(Map<String, List<String>> headers, int offset, int length) throws MalformedException {
            List<String> disposition = headers.get("Content-Disposition");
            List<String> type = headers.get("Content-Type");
            if (disposition == null || disposition.size() > 1 || (type != null && type.size() > 1)) {
                throw new MalformedException();
            }
            String value = disposition.get(0);
            int semicolon = value.indexOf(';');
            if (semicolon < 0 || !value.substring(0, semicolon).trim().equalsIgnoreCase("form-data")) {
                throw new MalformedException();
            }
            Optional<Map<String, String>> parameters = parameters(value.substring(semicolon));
            if (!parameters.isPresent() || !parameters.get().containsKey("name")) {
                throw new MalformedException();
            }
            return new Part(
                    body,
                    headers,
                    parameters.get().get("name"),
                    parameters.get().get("filename"),
                    offset,
                    length);
        }

        /** The header lines up to the empty line, each ended by CRLF, as UTF-8 text. */
        private Map<String, List<String>> headers() throws MalformedException {
            Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            while (true) {
                ByteArrayOutputStream line = new ByteArrayOutputStream();
                for (int b = read(); b != '\r'; b = read()) {
                    if (b == '\n') {
                        throw new MalformedException();
                    }
                    line.write(b);
                }
                if (read() != '\n') {
                    throw new MalformedException();
                }
                if (line.size() == 0) {
                    return headers;
                }
                Optional<String> text = strictDecode(line.toByteArray(), StandardCharsets.UTF_8);
                int colon = text.isPresent() ? text.get().indexOf(':') : -1;
                // A line that starts with white space would continue the previous one (obsolete folding).
                if (colon <= 0 || Character.isWhitespace(text.get().charAt(0))) {
                    throw new MalformedException();
                }
                String name = text.get().substring(0, colon).trim();
                headers.computeIfAbsent(name, n -> new ArrayList<>())
                        .add(text.get().substring(colon + 1).trim());
            }
        }

        /**
         * Reads up to and including the next delimiter, {@code matched} of whose bytes count as already read.
         *
         * @return the position the delimiter's first byte in the body is at, or -1 at the end of the body
         */
        private int findDelimiter(int matched) {
            int m = matched;
            for (int b = in.read(); b != -1; b = in.read()) {
                position++;
                if (b == (delimiter[m] & 0xFF)) {
                    if (++m == delimiter.length) {
                        // The bytes taken as already read are not in the body.
                        return position - (delimiter.length - matched);
                    }
                } else {
                    // CR is the delimiter's first byte and appears nowhere else in it (no boundary character is a
                    // CR), so a failed match can only restart at this byte.
                    m = b == '\r' ? 1 : 0;
                }
            }
            return -1;
        }

        private int read() throws MalformedException {
            int b = in.read();
            if (b == -1) {
                throw new MalformedException();
            }
            position++;
            return b;
        }
    }
}
