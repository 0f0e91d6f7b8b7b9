package dev.idempotency.servlet;

import dev.idempotency.buffer.SegmentedBuffer;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Holds back everything the application writes: status, headers and body stay in memory and nothing
 * reaches the client, so the filter can still roll back and answer differently. The response is never
 * committed while wrapped; {@code flushBuffer} and stream flushes only flush into the buffer.
 *
 * <p>Follows the servlet rules a real response enforces: {@code getOutputStream} and {@code getWriter}
 * exclude each other, {@code reset} clears status, headers and body, and the writer's charset comes from
 * the content type or {@code setCharacterEncoding}, or else is the container's default for the application
 * (ISO-8859-1 unless {@code <response-character-encoding>} or the server says otherwise). The captured {@code
 * Content-Type} is the one the application set, with a charset only if it named one: whatever a container adds
 * to a written text is added again when the capture is sent, through the container's own writer.
 *
 * <p>While a resource included with {@code RequestDispatcher.include} runs, its changes to the status and headers
 * are ignored, as the container ignores them on its own response (a JSP's page directive sets {@code
 * text/html;charset=ISO-8859-1} even when included); its body is captured like any other.
 *
 * <p>The body is held up to a limit; bytes beyond it are dropped and {@link CapturedResponse#overflowed()}
 * tells, so a truncated body is never mistaken for the response. While the application writes, the body is held
 * in a {@link SegmentedBuffer}; {@link #captured()} joins it into the one array that is then stored and sent, and
 * lets go of each segment as it is copied, so the body is never held twice.
 *
 * <p>Not thread-safe, like the response it wraps.
 */
public final class CapturingResponseWrapper extends HttpServletResponseWrapper {
    private static final String CONTENT_TYPE = "Content-Type";

    private final SegmentedBuffer body = new SegmentedBuffer(1024);
    private final long maxBodyBytes;
    private final ServletRequest request;
    private boolean overflowed;
    private final Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final List<String> headerOrder = new ArrayList<>();
    private int status = SC_OK;
    private String errorMessage;
    private String mediaType;
    /** The charset the application named, in the content type or with {@code setCharacterEncoding}. */
    private String characterEncoding;
    /** The charset of the writer, fixed when the application asked for it; {@code null} before. */
    private String writerCharset;
    /**
     * Whether the writer was first asked for by an included resource: a container does not label the text
     * with its charset then (the include may not change headers), so it is sent as bytes, unlabelled too.
     */
    private boolean writerFromInclude;

    private ServletOutputStream outputStream;
    private PrintWriter writer;

    /** @param maxBodyBytes the most body bytes to hold; a longer body marks the capture as overflowed */
    public CapturingResponseWrapper(HttpServletResponse response, long maxBodyBytes) {
        this(response, maxBodyBytes, null);
    }

    /**
     * @param request the request this response answers, whose include attributes tell when an included
     *     resource is running; {@code null} if the application never includes
     */
    public CapturingResponseWrapper(HttpServletResponse response, long maxBodyBytes, ServletRequest request) {
        super(response);
        this.maxBodyBytes = maxBodyBytes;
        this.request = request;
    }

    /**
     * {@link RequestDispatcher#INCLUDE_REQUEST_URI}, built from the API's package when the class loads rather than
     * inlined by the compiler as text: the {@code javax} build renames the class reference, so there it reads
     * {@code javax.servlet.include.request_uri}, the attribute an EE 8 container sets.
     */
    private static final String INCLUDE_REQUEST_URI = packageOf(RequestDispatcher.class) + ".include.request_uri";

    private static String packageOf(Class<?> type) {
        return type.getName().substring(0, type.getName().lastIndexOf('.'));
    }

    /** Whether an included resource is running: the container sets this attribute for the include's duration. */
    private boolean including() {
        return request != null && request.getAttribute(INCLUDE_REQUEST_URI) != null;
    }

    /**
     * What the application wrote, with any writer flushed. Its body is the capture's own array, not a copy: asked
     * again with nothing written in between, it is the same array.
     */
    public CapturedResponse captured() {
        if (writer != null) {
            writer.flush();
        }
        Map<String, List<String>> all = new LinkedHashMap<>();
        if (mediaType != null) {
            all.put(CONTENT_TYPE, Collections.singletonList(withCharset(mediaType, characterEncoding)));
        }
        for (String name : headerOrder) {
            all.put(name, Collections.unmodifiableList(new ArrayList<>(headers.get(name))));
        }
        return new CapturedResponse(
                status, all, body.asOneArray(), errorMessage, overflowed, writerFromInclude ? null : writerCharset);
    }

    // Status

    @Override
    public void setStatus(int sc) {
        if (including()) {
            return;
        }
        this.status = sc;
    }

    /**
     * Servlet 4.0's {@code setStatus(int, String)}, which Servlet 6 removed. It is declared here, not inherited, so
     * that on a Jakarta EE 8 server the javax jar's wrapper overrides the container's and captures the status: Jersey
     * 2 (Payara 5's JAX-RS) sets every status with its reason phrase, and the wrapper it inherits would pass the
     * status by the capture. The phrase is not kept: a stored response is replayed with the status alone, as
     * {@link #setStatus(int)} sends it.
     */
    public void setStatus(int sc, String reasonPhrase) {
        setStatus(sc);
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void sendError(int sc, String msg) {
        if (including()) {
            return;
        }
        resetBuffer();
        this.status = sc;
        this.errorMessage = msg == null ? "" : msg;
    }

    @Override
    public void sendError(int sc) {
        sendError(sc, null);
    }

    @Override
    public void sendRedirect(String location) {
        sendRedirect(location, SC_FOUND, true);
    }

    /**
     * Servlet 6.1's {@code sendRedirect(String, int)}. This and the two overloads below are declared here, not
     * inherited: Servlet 6.1's {@code HttpServletResponseWrapper} forwards each overload straight to the same
     * overload of the wrapped response, so without them a redirect made with them would reach the client before
     * the commit, and the capture would keep another status. On Servlet 6.0 and older they are extra methods.
     */
    public void sendRedirect(String location, int sc) {
        sendRedirect(location, sc, true);
    }

    /** Servlet 6.1's {@code sendRedirect(String, boolean)}: a 302, keeping the body written so far when asked to. */
    public void sendRedirect(String location, boolean clearBuffer) {
        sendRedirect(location, SC_FOUND, clearBuffer);
    }

    /**
     * Servlet 6.1's {@code sendRedirect(String, int, boolean)}, to which the other three come: the status and
     * {@code Location} are captured and, unless the application keeps it, the body written so far is dropped.
     */
    public void sendRedirect(String location, int sc, boolean clearBuffer) {
        if (including()) {
            return;
        }
        if (clearBuffer) {
            resetBuffer();
        }
        setHeader("Location", location);
        this.status = sc;
    }

    // Headers

    @Override
    public void setHeader(String name, String value) {
        if (including()) {
            return;
        }
        if (name.equalsIgnoreCase(CONTENT_TYPE)) {
            setContentType(value);
            return;
        }
        removeHeader(name);
        if (value != null) {
            addHeader(name, value);
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (including()) {
            return;
        }
        if (name.equalsIgnoreCase(CONTENT_TYPE)) {
            setContentType(value);
            return;
        }
        if (!headers.containsKey(name)) {
            headerOrder.add(name);
        }
        headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }

    @Override
    public void setIntHeader(String name, int value) {
        setHeader(name, Integer.toString(value));
    }

    @Override
    public void addIntHeader(String name, int value) {
        addHeader(name, Integer.toString(value));
    }

    @Override
    public void setDateHeader(String name, long date) {
        setHeader(name, httpDate(date));
    }

    @Override
    public void addDateHeader(String name, long date) {
        addHeader(name, httpDate(date));
    }

    @Override
    public boolean containsHeader(String name) {
        return name.equalsIgnoreCase(CONTENT_TYPE) ? mediaType != null : headers.containsKey(name);
    }

    @Override
    public String getHeader(String name) {
        if (name.equalsIgnoreCase(CONTENT_TYPE)) {
            return getContentType();
        }
        List<String> values = headers.get(name);
        return values == null ? null : values.get(0);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        if (name.equalsIgnoreCase(CONTENT_TYPE)) {
            return mediaType == null ? Collections.emptyList() : Collections.singletonList(getContentType());
        }
        List<String> values = headers.get(name);
        return values == null ? Collections.emptyList() : Collections.unmodifiableList(new ArrayList<>(values));
    }

    @Override
    public Collection<String> getHeaderNames() {
        List<String> names = new ArrayList<>(headerOrder);
        if (mediaType != null) {
            names.add(0, CONTENT_TYPE);
        }
        return names;
    }

    private void removeHeader(String name) {
        if (headers.remove(name) != null) {
            headerOrder.removeIf(existing -> existing.equalsIgnoreCase(name));
        }
    }

    // Content type and encoding

    @Override
    public void setContentType(String type) {
        if (including()) {
            return;
        }
        if (type == null) {
            mediaType = null;
            return;
        }
        String[] parts = type.split(";");
        StringBuilder withoutCharset = new StringBuilder(parts[0].trim());
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (parameter.toLowerCase(Locale.ROOT).startsWith("charset=")) {
                // Once the writer exists its charset is fixed, as on a real response.
                if (writer == null) {
                    characterEncoding = parameter.substring("charset=".length()).replace("\"", "");
                }
            } else if (!parameter.isEmpty()) {
                withoutCharset.append(";").append(parameter);
            }
        }
        mediaType = withoutCharset.toString();
    }

    /** As on a real response, the charset of the writer shows once the writer exists. */
    @Override
    public String getContentType() {
        if (mediaType == null) {
            return null;
        }
        return withCharset(mediaType, characterEncoding == null ? writerCharset : characterEncoding);
    }

    private static String withCharset(String mediaType, String charset) {
        return charset == null ? mediaType : mediaType + ";charset=" + charset;
    }

    @Override
    public void setCharacterEncoding(String charset) {
        if (including()) {
            return;
        }
        if (writer == null) {
            characterEncoding = charset;
        }
    }

    /**
     * Servlet 6.1's {@code setCharacterEncoding(Charset)}, declared here for the reason given at {@link
     * #sendRedirect(String, int)}: the wrapper it would inherit sets the charset on the response the client gets.
     */
    public void setCharacterEncoding(Charset charset) {
        setCharacterEncoding(charset == null ? null : charset.name());
    }

    @Override
    public String getCharacterEncoding() {
        if (characterEncoding != null) {
            return characterEncoding;
        }
        // The wrapped response is untouched, so it answers with the container's default for this application.
        return writerCharset != null ? writerCharset : super.getCharacterEncoding();
    }

    @Override
    public void setContentLength(int len) {
        // The filter sets the real length from the captured body.
    }

    @Override
    public void setContentLengthLong(long len) {
        // The filter sets the real length from the captured body.
    }

    @Override
    public void setLocale(Locale locale) {
        if (including()) {
            return;
        }
        // Only the language matters here: the charset mapping of setLocale is not supported.
        if (locale != null) {
            setHeader("Content-Language", locale.toLanguageTag());
        }
    }

    // Body

    @Override
    public ServletOutputStream getOutputStream() {
        if (writer != null) {
            throw new IllegalStateException("getWriter() has already been called on this response");
        }
        if (outputStream == null) {
            outputStream = new HeldBody();
        }
        return outputStream;
    }

    @Override
    public PrintWriter getWriter() {
        if (outputStream != null) {
            throw new IllegalStateException("getOutputStream() has already been called on this response");
        }
        if (writer == null) {
            writerCharset = getCharacterEncoding();
            writerFromInclude = including();
            writer = new PrintWriter(new OutputStreamWriter(new HeldBody(), Charset.forName(writerCharset)));
        }
        return writer;
    }

    @Override
    public void flushBuffer() {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public boolean isCommitted() {
        return false;
    }

    @Override
    public void reset() {
        resetBuffer();
        status = SC_OK;
        errorMessage = null;
        headers.clear();
        headerOrder.clear();
        mediaType = null;
        characterEncoding = null;
        writerCharset = null;
        writerFromInclude = false;
        // As on a real response, reset() also forgets whether getWriter or getOutputStream was used.
        writer = null;
        outputStream = null;
    }

    @Override
    public void resetBuffer() {
        if (writer != null) {
            writer.flush();
        }
        body.clear();
        overflowed = false;
    }

    @Override
    public void setBufferSize(int size) {
        // Everything is buffered until the transaction ends; the size cannot matter.
    }

    /** The stream behind both getOutputStream and getWriter: bytes go to the held body, up to the limit. */
    private final class HeldBody extends ServletOutputStream {
        @Override
        public void write(int b) {
            hold(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            hold(b, off, len);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            try {
                listener.onWritePossible();
            } catch (IOException e) {
                listener.onError(e);
            }
        }
    }

    private void hold(byte[] bytes, int offset, int length) {
        if (overflowed || body.size() + (long) length > maxBodyBytes) {
            overflowed = true;
            return;
        }
        body.write(bytes, offset, length);
    }

    private static String httpDate(long epochMillis) {
        return HttpDates.format(Instant.ofEpochMilli(epochMillis));
    }
}
