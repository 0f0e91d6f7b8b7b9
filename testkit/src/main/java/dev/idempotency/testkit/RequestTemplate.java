package dev.idempotency.testkit;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The request an {@link IdempotencyCheck} sends: method, absolute URI, headers and body, without the key
 * (each check adds a key of its own). Build it once per endpoint:
 *
 * <pre>{@code
 * RequestTemplate debit = RequestTemplate.post(URI.create(base + "api/accounts/" + account + "/debits"))
 *         .basicAuth("alice", "alice")
 *         .header("Content-Type", "application/json")
 *         .body("{\"amount\": 100}");
 * }</pre>
 *
 * <p>The kit sets {@code Host}, {@code Content-Length} and {@code Connection} itself; they, {@code
 * Transfer-Encoding}, {@code Expect} and {@code Upgrade} cannot be set here. Header names must be HTTP tokens
 * and values printable ASCII, because the lost-response check writes them onto a socket as they are.
 *
 * <p>Immutable and thread-safe: every method returns a new template.
 */
public final class RequestTemplate {
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern PRINTABLE_ASCII = Pattern.compile("[\\x20-\\x7E\\t]*");
    private static final Set<String> MANAGED_HEADERS =
            Set.of("host", "content-length", "connection", "transfer-encoding", "expect", "upgrade");

    /** One request header, in the order the user added it; a name may repeat. */
    record Header(String name, String value) {}

    private final String method;
    private final URI uri;
    private final List<Header> headers;
    private final String body;

    private RequestTemplate(String method, URI uri, List<Header> headers, String body) {
        this.method = method;
        this.uri = uri;
        this.headers = List.copyOf(headers);
        this.body = body;
    }

    /**
     * A POST to {@code uri}, with no headers and an empty body.
     *
     * @throws IllegalArgumentException if {@code uri} is not an absolute http or https URI with a host
     */
    public static RequestTemplate post(URI uri) {
        return of("POST", uri);
    }

    /**
     * A request with any method to {@code uri}, with no headers and an empty body.
     *
     * @throws IllegalArgumentException if {@code method} is not an HTTP token, or {@code uri} is not an absolute
     *     http or https URI with a host
     */
    public static RequestTemplate of(String method, URI uri) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(uri, "uri");
        if (!TOKEN.matcher(method).matches()) {
            throw new IllegalArgumentException("method must be an HTTP token such as POST, was '" + method + "'");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            throw new IllegalArgumentException("uri must be an absolute http or https URI with a host, was " + uri);
        }
        return new RequestTemplate(method, uri, List.of(), "");
    }

    /**
     * This template with one more header.
     *
     * @throws IllegalArgumentException if {@code name} is not an HTTP token or is one the kit sets itself, or
     *     {@code value} contains anything but printable ASCII
     */
    public RequestTemplate header(String name, String value) {
        requireSettableHeaderName(name);
        Objects.requireNonNull(value, "value");
        if (!PRINTABLE_ASCII.matcher(value).matches()) {
            throw new IllegalArgumentException(
                    "the value of header " + name + " must be printable ASCII, was '" + value + "'");
        }
        List<Header> more = new ArrayList<>(headers);
        more.add(new Header(name, value));
        return new RequestTemplate(method, uri, more, body);
    }

    /**
     * Checks a header name the user chooses, for a template's header or the key's.
     *
     * @throws IllegalArgumentException if {@code name} is not an HTTP token or is one the kit sets itself
     */
    static void requireSettableHeaderName(String name) {
        Objects.requireNonNull(name, "name");
        if (!TOKEN.matcher(name).matches()) {
            throw new IllegalArgumentException("header name must be an HTTP token, was '" + name + "'");
        }
        if (MANAGED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("header " + name + " cannot be set: the kit sets Host, Content-Length"
                    + " and Connection itself and sends no Transfer-Encoding, Expect or Upgrade");
        }
    }

    /** This template with {@code Authorization: Basic} for {@code user} and {@code password} (UTF-8). */
    public RequestTemplate basicAuth(String user, String password) {
        String credentials = user + ":" + password;
        return header(
                "Authorization",
                "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
    }

    /** This template with {@code body}, sent as UTF-8; set the {@code Content-Type} header yourself. */
    public RequestTemplate body(String body) {
        return new RequestTemplate(method, uri, headers, Objects.requireNonNull(body, "body"));
    }

    String method() {
        return method;
    }

    URI uri() {
        return uri;
    }

    List<Header> headers() {
        return headers;
    }

    String body() {
        return body;
    }

    byte[] bodyBytes() {
        return body.getBytes(StandardCharsets.UTF_8);
    }

    boolean hasHeader(String name) {
        return headers.stream().anyMatch(header -> header.name().equalsIgnoreCase(name));
    }

    /** The method and URI, as failure messages name the request. */
    @Override
    public String toString() {
        return method + " " + uri;
    }
}
