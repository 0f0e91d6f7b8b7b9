package dev.idempotency.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Builds the {@link CanonicalRequest} that identifies a request. It knows nothing of servlets, so the
 * consumer variant can use it for message payloads too.
 *
 * <p>The identity rule per body type:
 *
 * <ul>
 *   <li>{@code application/json} and {@code application/*+json}: {@link CanonicalJson}, stored as {@code
 *       {"json": ...}}. Member order, whitespace and number spelling do not matter.
 *   <li>{@code application/x-www-form-urlencoded}: the decoded name/value pairs sorted by name, then value,
 *       stored as {@code {"form": [[name, value], ...]}}.
 *   <li>{@code multipart/form-data} ({@link MultipartForm}): the same {@code {"form": [[name, value], ...]}}, one
 *       pair per part, sorted alike. A text part's value is its text, in the charset of its {@code Content-Type},
 *       UTF-8 if none; a file part's (one with a {@code filename}) is {@code
 *       file:<filename>;<content type>;sha256:<hex>}, its content type lower-cased with spaces removed, empty if it
 *       has none. The boundary, which a browser draws anew on every submit, and the part order do not count, so a
 *       form posted twice is one request; the key field and {@code ignore=/body/form/<name>} leave parts out as
 *       they leave out pairs.
 *   <li>anything else, and JSON or form bodies that do not parse (a multipart body that is not well formed, or
 *       whose text part is not valid in its charset): {@code {"mediaType": ..., "sha256": ...}},
 *       the lower-cased content type and the SHA-256 of the exact bytes.
 *   <li>no body at all: {@code null}.
 * </ul>
 *
 * The query string's {@code &}-separated pairs are sorted as they were sent, without decoding.
 *
 * <p>Stateless and thread-safe.
 */
public final class RequestCanonicalizer {
    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    /**
     * @param method the HTTP method
     * @param operation the operation contract, such as {@code debit:v1}
     * @param path the concrete path relative to the context path
     * @param query the raw query string, or {@code null}
     * @param contentType the request's content type, or {@code null}
     * @param body the complete request body, possibly empty
     */
    public CanonicalRequest canonicalize(
            String method, String operation, String path, String query, String contentType, byte[] body) {
        return canonicalize(method, operation, path, query, contentType, body, Collections.emptyList());
    }

    /**
     * The same, leaving out the {@link IgnoredParts} named by {@code ignored}; the result lists them under {@code
     * ignored}, so a record says what its comparison did not cover.
     */
    public CanonicalRequest canonicalize(
            String method,
            String operation,
            String path,
            String query,
            String contentType,
            byte[] body,
            List<String> ignored) {
        return canonicalize(method, operation, path, query, contentType, SegmentedBuffer.of(body), ignored);
    }

    /**
     * The same, for a body held in segments, read where it lies: a JSON body is parsed from a stream over its
     * segments, an opaque body hashed segment by segment, and a multipart body's parts read where they lie (a text
     * part is copied while it is decoded, a file part hashed in place), so no second copy of the body is made (an
     * urlencoded form body, decoded pair by pair, is the exception: it is copied into one array while it is
     * decoded).
     */
    public CanonicalRequest canonicalize(
            String method,
            String operation,
            String path,
            String query,
            String contentType,
            SegmentedBuffer body,
            List<String> ignored) {
        ObjectNode request = NODES.objectNode();
        request.put("method", method);
        request.put("operation", operation);
        request.put("path", path);
        request.put("query", canonicalQuery(query, IgnoredParts.queryNames(ignored)));
        JsonNode canonicalBody = canonicalBodyNode(contentType, body);
        IgnoredParts.removeFromBody(canonicalBody, ignored);
        request.set("body", canonicalBody);
        if (!ignored.isEmpty()) {
            ArrayNode pointers = request.putArray("ignored");
            ignored.forEach(pointers::add);
        }
        return new CanonicalRequest(CanonicalJson.write(request));
    }

    /**
     * The identity of a body alone, by the same rule as a request's body: for message payloads, which have
     * no method or path.
     */
    public static String canonicalBody(String contentType, byte[] body) {
        return CanonicalJson.write(canonicalBodyNode(contentType, SegmentedBuffer.of(body)));
    }

    private static String canonicalQuery(String query, List<String> ignoredNames) {
        if (query == null || query.isEmpty()) {
            return "";
        }
        return Arrays.stream(query.split("&"))
                .filter(pair -> !ignoredNames.contains(pair.split("=", 2)[0]))
                .sorted()
                .collect(Collectors.joining("&"));
    }

    private static JsonNode canonicalBodyNode(String contentType, SegmentedBuffer body) {
        if (body.size() == 0) {
            return NODES.nullNode();
        }
        String mediaType = mediaType(contentType);
        if (mediaType.equals("application/json")
                || (mediaType.startsWith("application/") && mediaType.endsWith("+json"))) {
            Optional<JsonNode> json = CanonicalJson.parse(body.newInputStream());
            if (json.isPresent()) {
                return NODES.objectNode().set("json", json.get());
            }
        } else if (mediaType.equals("application/x-www-form-urlencoded")) {
            Optional<ArrayNode> form = sortedPairs(body.toByteArray(), charset(contentType));
            if (form.isPresent()) {
                return NODES.objectNode().set("form", form.get());
            }
        } else if (mediaType.equals("multipart/form-data")) {
            Optional<ArrayNode> form = sortedParts(contentType, body);
            if (form.isPresent()) {
                return NODES.objectNode().set("form", form.get());
            }
        }
        ObjectNode opaque = NODES.objectNode();
        opaque.put(
                "mediaType",
                contentType == null ? "" : contentType.replace(" ", "").toLowerCase(Locale.ROOT));
        opaque.put("sha256", sha256(body));
        return opaque;
    }

    /**
     * The decoded pairs, or empty if the body does not decode cleanly: a malformed escape, or bytes that are
     * not valid in the charset. Decoding must never replace bytes (with U+FFFD), or two different bodies
     * would become one request.
     */
    private static Optional<ArrayNode> sortedPairs(byte[] body, Charset charset) {
        List<String[]> pairs = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= body.length; i++) {
            if (i == body.length || body[i] == '&') {
                if (i > start) {
                    int equals = indexOf(body, (byte) '=', start, i);
                    Optional<String> name = decode(body, start, equals < 0 ? i : equals, charset);
                    Optional<String> value = equals < 0 ? Optional.of("") : decode(body, equals + 1, i, charset);
                    if (!name.isPresent() || !value.isPresent()) {
                        return Optional.empty();
                    }
                    pairs.add(new String[] {name.get(), value.get()});
                }
                start = i + 1;
            }
        }
        return Optional.of(sorted(pairs));
    }

    /**
     * One pair per part, or empty if the body is not a well-formed form or a text part is not valid in its charset.
     * A file part is hashed where it lies, so a large upload is not copied.
     */
    private static Optional<ArrayNode> sortedParts(String contentType, SegmentedBuffer body) {
        Optional<MultipartForm> multipart = MultipartForm.parse(contentType, body);
        if (!multipart.isPresent()) {
            return Optional.empty();
        }
        List<String[]> pairs = new ArrayList<>();
        for (MultipartForm.Part part : multipart.get().parts()) {
            Optional<String> value;
            if (part.fileName().isPresent()) {
                String type = part.contentType() == null ? "" : part.contentType();
                value = Optional.of("file:" + part.fileName().get() + ";"
                        + type.replace(" ", "").toLowerCase(Locale.ROOT) + ";sha256:"
                        + sha256(part.newInputStream()));
            } else {
                value = part.strictText();
            }
            if (!value.isPresent()) {
                return Optional.empty();
            }
            pairs.add(new String[] {part.name(), value.get()});
        }
        return Optional.of(sorted(pairs));
    }

    private static ArrayNode sorted(List<String[]> pairs) {
        pairs.sort((a, b) -> a[0].equals(b[0]) ? a[1].compareTo(b[1]) : a[0].compareTo(b[0]));
        ArrayNode form = NODES.arrayNode();
        for (String[] pair : pairs) {
            form.addArray().add(pair[0]).add(pair[1]);
        }
        return form;
    }

    private static Optional<String> decode(byte[] body, int from, int to, Charset charset) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(to - from);
        for (int i = from; i < to; i++) {
            if (body[i] == '+') {
                bytes.write(' ');
            } else if (body[i] == '%') {
                int high = i + 2 < to ? Character.digit(body[i + 1], 16) : -1;
                int low = i + 2 < to ? Character.digit(body[i + 2], 16) : -1;
                if (high < 0 || low < 0) {
                    return Optional.empty();
                }
                bytes.write(high * 16 + low);
                i += 2;
            } else {
                bytes.write(body[i]);
            }
        }
        try {
            return Optional.of(charset.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static int indexOf(byte[] bytes, byte wanted, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static String mediaType(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.trim().toLowerCase(Locale.ROOT);
    }

    private static Charset charset(String contentType) {
        for (String parameter : contentType.split(";")) {
            String[] nameValue = parameter.trim().split("=", 2);
            if (nameValue.length == 2 && nameValue[0].trim().equalsIgnoreCase("charset")) {
                try {
                    return Charset.forName(nameValue[1].trim().replace("\"", ""));
                } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    private static String sha256(SegmentedBuffer body) {
        return sha256(body.newInputStream());
    }

    private static String sha256(InputStream bytes) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        byte[] piece = new byte[8192];
        try (InputStream in = bytes) {
            for (int n = in.read(piece); n != -1; n = in.read(piece)) {
                digest.update(piece, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("a stream over bytes in memory does not fail", e);
        }
        return Hex.of(digest.digest());
    }
}
