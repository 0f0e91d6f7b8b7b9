package dev.idempotency.servlet;

import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.Charset;
import java.util.List;
import java.util.Map;

/**
 * Sends a complete, known response in one go: the filter only ever writes responses whose every byte
 * is already decided. Stateless and thread-safe.
 */
public final class ResponseWriter {
    static final int TEXT_PIECE_CHARS = 8192;

    private ResponseWriter() {}

    /**
     * Writes this status, these headers and this body. {@code Content-Length} and {@code Transfer-Encoding}
     * entries in {@code headers} are ignored, because a stored value may be stale: the framing is the
     * container's, as for any complete body an application writes in one go (a {@code Content-Length} when the
     * body fits the container's response buffer, chunked otherwise). Headers the container set before the
     * filter ran (such as {@code Cache-Control} on authenticated responses) stay unless {@code headers} names
     * them too.
     */
    public static void send(HttpServletResponse response, int status, Map<String, List<String>> headers, byte[] body)
            throws IOException {
        send(response, status, headers, body, null);
    }

    /**
     * As {@link #send(HttpServletResponse, int, Map, byte[])}, for a body the application wrote through a writer
     * in {@code writerCharset}: the text goes through the container's writer again, so the container labels
     * it as it labels any written text (WildFly adds {@code ;charset=...} to the {@code Content-Type}, Open
     * Liberty does not), byte for byte the same since the writer's charset resolves the same way. The text is
     * decoded into the writer a piece at a time, never into one string beside the body.
     *
     * @param writerCharset the charset the body was written in, or {@code null} for a body written as bytes
     */
    public static void send(
            HttpServletResponse response,
            int status,
            Map<String, List<String>> headers,
            byte[] body,
            String writerCharset)
            throws IOException {
        response.setStatus(status);
        headers.forEach((name, values) -> {
            if (name.equalsIgnoreCase("Content-Type")) {
                // setContentType, not a header, so the container does not append a charset of its own.
                response.setContentType(values.get(0));
            } else if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding")) {
                response.setHeader(name, values.get(0));
                values.stream().skip(1).forEach(value -> response.addHeader(name, value));
            }
        });
        if (writerCharset == null) {
            response.getOutputStream().write(body);
        } else {
            writeText(response.getWriter(), body, Charset.forName(writerCharset));
        }
    }

    /**
     * Decodes the body into the writer {@value #TEXT_PIECE_CHARS} characters at a time: a string of the whole body
     * would hold the text a second time beside the body, in two bytes per character once one character is beyond
     * Latin-1. The reader decodes as {@code new String(body, charset)} does (malformed or unmappable input replaced
     * by the charset's replacement, the same way), and a decoder writes a surrogate pair whole or not at all, so no
     * piece ends between its halves.
     */
    private static void writeText(PrintWriter writer, byte[] body, Charset charset) throws IOException {
        try (Reader text = new InputStreamReader(new ByteArrayInputStream(body), charset)) {
            char[] piece = new char[TEXT_PIECE_CHARS];
            for (int n = text.read(piece); n != -1; n = text.read(piece)) {
                writer.write(piece, 0, n);
            }
        }
    }
}
