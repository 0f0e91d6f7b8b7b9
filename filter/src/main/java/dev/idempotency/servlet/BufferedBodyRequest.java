package dev.idempotency.servlet;

import dev.idempotency.buffer.SegmentedBuffer;
import dev.idempotency.canonical.MultipartForm;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.Part;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A request whose body was read once, under a size cap, so the filter can canonicalize it and the
 * application can still read it. Form parameters, and the parts of a {@code multipart/form-data} body, are parsed
 * from the buffered body, because the container can no longer read them from the consumed stream. A multipart
 * body's text parts are its parameters, as a container makes them for a servlet with {@code @MultipartConfig};
 * the parts are served whether or not the servlet has one, and the operation's body size limit is their only limit.
 *
 * <p>The body is held once, in a {@link SegmentedBuffer}, for as long as the application runs: the filter reads
 * it there to canonicalize it, and the application's stream and reader read the same segments.
 *
 * <p>Asynchronous processing is refused: the filter's transaction and response capture end when the
 * filter returns, so a response completed later on another thread could be neither stored nor rolled
 * back. {@code isAsyncSupported()} answers false, and {@code startAsync} throws and is remembered.
 *
 * <p>Not thread-safe, like the request it wraps.
 */
public final class BufferedBodyRequest extends HttpServletRequestWrapper {
    private static final String FORM = "application/x-www-form-urlencoded";

    private final SegmentedBuffer body;
    private ServletInputStream stream;
    private BufferedReader reader;
    private Map<String, String[]> formParameters;
    /** The multipart body's parts, parsed on first use; {@code null} until then. */
    private Optional<MultipartForm> multipart;

    private boolean asyncAttempted;

    private BufferedBodyRequest(HttpServletRequest request, SegmentedBuffer body) {
        super(request);
        this.body = body;
    }

    /**
     * Reads the whole body, stopping as soon as it exceeds {@code maxBytes}: a declared length over the cap
     * is refused without reading, and a chunked body is cut off at the cap.
     *
     * @throws ProblemException {@link Problem#REQUEST_TOO_LARGE} if the body is larger than {@code maxBytes};
     *     {@link Problem#REQUEST_INCOMPLETE} if reading it failed, as when the client aborts the upload
     */
    public static BufferedBodyRequest read(HttpServletRequest request, long maxBytes) throws ProblemException {
        if (request instanceof BufferedBodyRequest buffered) {
            // Already read to check an operation's conditions; the cap was the same.
            return buffered;
        }
        long declared = request.getContentLengthLong();
        if (declared > maxBytes) {
            throw tooLarge(maxBytes);
        }
        // A declared length is a hint, not a promise: never allocate more than 64 KiB before bytes arrive.
        SegmentedBuffer body = new SegmentedBuffer((int) Math.min(Math.max(declared, 1024), 64 * 1024));
        byte[] buffer = new byte[8192];
        try {
            InputStream in = request.getInputStream();
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                if (body.size() + (long) n > maxBytes) {
                    throw tooLarge(maxBytes);
                }
                body.write(buffer, 0, n);
            }
        } catch (IOException e) {
            // The client went away or stalled mid-upload. The body is read before the claim, so nothing was
            // claimed, no transaction was begun and nothing ran.
            throw new ProblemException(
                    Problem.REQUEST_INCOMPLETE,
                    "the request body ended after " + body.size() + " bytes"
                            + (declared >= 0 ? " of the declared " + declared : "") + " (" + e.getMessage()
                            + "); nothing ran; resend the whole request with"
                            + " the same key");
        }
        return new BufferedBodyRequest(request, body);
    }

    private static ProblemException tooLarge(long maxBytes) {
        return new ProblemException(
                Problem.REQUEST_TOO_LARGE,
                "the request body is larger than " + maxBytes + " bytes, the limit for this operation; send a"
                        + " smaller body");
    }

    /** Whether the application tried to start asynchronous processing. */
    public boolean asyncAttempted() {
        return asyncAttempted;
    }

    @Override
    public boolean isAsyncSupported() {
        return false;
    }

    @Override
    public AsyncContext startAsync() {
        asyncAttempted = true;
        throw new IllegalStateException("the idempotency filter holds this response until its transaction"
                + " commits, so asynchronous processing is not available for idempotent operations");
    }

    @Override
    public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
        return startAsync();
    }

    /** The exact bytes the client sent, held in segments; read them, never write to them. */
    public SegmentedBuffer body() {
        return body;
    }

    /**
     * The one stream over the buffered body, the same on every call as the container's own: Jersey (Payara)
     * asks for it again on every read, and a fresh stream each time would hand it the first bytes twice.
     */
    @Override
    public ServletInputStream getInputStream() {
        if (stream == null) {
            stream = new BufferedBodyStream(body.newInputStream());
        }
        return stream;
    }

    @Override
    public BufferedReader getReader() throws UnsupportedEncodingException {
        if (reader == null) {
            reader = new BufferedReader(new InputStreamReader(getInputStream(), charset()));
        }
        return reader;
    }

    @Override
    public String getParameter(String name) {
        String[] values = getParameterMap().get(name);
        return values == null ? null : values[0];
    }

    @Override
    public String[] getParameterValues(String name) {
        String[] values = getParameterMap().get(name);
        return values == null ? null : values.clone();
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return Collections.enumeration(getParameterMap().keySet());
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        boolean multipartBody = MultipartForm.isMultipart(getContentType());
        if (!isForm(getContentType()) && !multipartBody) {
            return super.getParameterMap();
        }
        if (formParameters == null) {
            Map<String, List<String>> values = FormPairs.decode(getQueryString(), StandardCharsets.UTF_8);
            Map<String, List<String>> inBody = multipartBody
                    ? textParts()
                    // The parameters hold the decoded text anyway; the array it is decoded from is let go at once.
                    : FormPairs.decode(new String(body.toByteArray(), charset()), charset());
            inBody.forEach((name, list) ->
                    values.computeIfAbsent(name, n -> new ArrayList<>()).addAll(list));
            Map<String, String[]> parameters = new LinkedHashMap<>();
            values.forEach((name, list) -> parameters.put(name, list.toArray(new String[0])));
            formParameters = Collections.unmodifiableMap(parameters);
        }
        return formParameters;
    }

    /**
     * The values of one field of a form body, urlencoded or multipart (its text parts), in the order sent; the
     * query string's pairs are not among them. Empty for any other body.
     */
    public List<String> formBodyValues(String name) {
        if (MultipartForm.isMultipart(getContentType())) {
            return textParts().getOrDefault(name, Collections.emptyList());
        }
        if (!isForm(getContentType())) {
            return Collections.emptyList();
        }
        return FormPairs.decode(new String(body.toByteArray(), charset()), charset())
                .getOrDefault(name, Collections.emptyList());
    }

    /**
     * The parts of a multipart body, read from the buffered body.
     *
     * @throws ServletException if the body is multipart but not well formed, as a container's parser refuses it
     */
    @Override
    public Collection<Part> getParts() throws IOException, ServletException {
        if (!MultipartForm.isMultipart(getContentType())) {
            return super.getParts();
        }
        List<Part> parts = new ArrayList<>();
        for (MultipartForm.Part part : wellFormedMultipart().parts()) {
            parts.add(new BufferedPart(part));
        }
        return parts;
    }

    /** The first part of that name, or {@code null}. */
    @Override
    public Part getPart(String name) throws IOException, ServletException {
        if (!MultipartForm.isMultipart(getContentType())) {
            return super.getPart(name);
        }
        for (MultipartForm.Part part : wellFormedMultipart().parts()) {
            if (part.name().equals(name)) {
                return new BufferedPart(part);
            }
        }
        return null;
    }

    /** Whether a body of this content type is an urlencoded form, which the parameters are read from. */
    public static boolean isForm(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith(FORM);
    }

    /** Whether a body of this content type is a form a browser posts: urlencoded or {@code multipart/form-data}. */
    public static boolean postsForm(String contentType) {
        return isForm(contentType) || MultipartForm.isMultipart(contentType);
    }

    private Optional<MultipartForm> multipart() {
        if (multipart == null) {
            multipart = MultipartForm.parse(getContentType(), body);
        }
        return multipart;
    }

    private MultipartForm wellFormedMultipart() throws ServletException {
        Optional<MultipartForm> form = multipart();
        if (!form.isPresent()) {
            throw new ServletException("the multipart/form-data body is malformed (RFC 7578), or its Content-Type"
                    + " names no valid boundary: " + getContentType());
        }
        return form.get();
    }

    /**
     * The text parts (those without a file name) of a multipart body, decoded as a container decodes them: in the
     * part's charset, else the request's, else UTF-8, which browsers send. None if the body is malformed.
     */
    private Map<String, List<String>> textParts() {
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (!multipart().isPresent()) {
            return values;
        }
        String encoding = getCharacterEncoding();
        Charset fallback = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        for (MultipartForm.Part part : multipart().get().parts()) {
            if (!part.fileName().isPresent()) {
                values.computeIfAbsent(part.name(), n -> new ArrayList<>())
                        .add(new String(part.bytes(), part.charset(fallback).orElse(fallback)));
            }
        }
        return values;
    }

    private Charset charset() {
        String encoding = getCharacterEncoding();
        // The Servlet specification's default for request bodies without a declared charset.
        return encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
    }

    /** The buffered body as a servlet stream, always ready, as a body that has fully arrived is. */
    private static final class BufferedBodyStream extends ServletInputStream {
        private final SegmentedBuffer.SegmentStream in;

        BufferedBodyStream(SegmentedBuffer.SegmentStream in) {
            this.in = in;
        }

        @Override
        public int read() {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return in.read(b, off, len);
        }

        @Override
        public int available() {
            return in.available();
        }

        @Override
        public boolean isFinished() {
            return in.available() == 0;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
            try {
                listener.onDataAvailable();
                listener.onAllDataRead();
            } catch (IOException e) {
                listener.onError(e);
            }
        }
    }
}
