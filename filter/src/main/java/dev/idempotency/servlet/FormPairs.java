package dev.idempotency.servlet;

import java.io.UnsupportedEncodingException;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Decodes {@code name=value&...} text, a query string or a form body, as containers do. Stateless. */
final class FormPairs {
    private FormPairs() {}

    /** Each name's values in the order sent; names in order of first appearance. Never {@code null}. */
    static Map<String, List<String>> decode(String text, Charset charset) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return values;
        }
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            try {
                String name = urlDecode(equals < 0 ? pair : pair.substring(0, equals), charset);
                String value = equals < 0 ? "" : urlDecode(pair.substring(equals + 1), charset);
                values.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            } catch (IllegalArgumentException malformedEscape) {
                // The container skips malformed pairs too, rather than failing the request.
            }
        }
        return values;
    }

    private static String urlDecode(String text, Charset charset) {
        try {
            return URLDecoder.decode(text, charset.name());
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException(charset + " is a charset of this runtime, named by its own name", e);
        }
    }
}
