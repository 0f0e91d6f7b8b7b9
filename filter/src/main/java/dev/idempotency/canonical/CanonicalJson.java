package dev.idempotency.canonical;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Canonical JSON in the spirit of RFC 8785 (JCS): object members sorted by their UTF-16 code units, no
 * insignificant whitespace, minimal string escaping, and one spelling per number.
 *
 * <p>Numbers are compared by exact decimal value, not as IEEE doubles, because a money amount must never
 * be rounded: {@code 100}, {@code 100.0} and {@code 1e2} are one number and print as {@code 100}; {@code
 * -0} prints as {@code 0}. Values whose decimal exponent lies in [-6, 20] print in plain notation, others
 * as {@code 1.5e+21} / {@code 1e-7}, which matches ECMAScript for every value a double can hold exactly.
 *
 * <p>A document with a duplicate member name, trailing content, or a number with a decimal exponent beyond
 * ±1,000,000 is not JSON for this purpose: {@link #parse} returns empty and the caller treats the body as
 * opaque bytes.
 *
 * <p>Thread-safe.
 */
public final class CanonicalJson {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(JsonParser.Feature.AUTO_CLOSE_SOURCE)
            .build();

    /** Far beyond any real amount, and far inside what a BigDecimal can read back. */
    static final int MAX_EXPONENT = 1_000_000;

    private CanonicalJson() {}

    /**
     * Parses a UTF-8 JSON document, read from a stream so that a body held in segments is parsed where it lies, or
     * returns empty if it is not one. A number whose decimal exponent lies beyond ±{@value #MAX_EXPONENT} also
     * makes it empty: its canonical spelling could not be read back. Jackson reads a stream exactly as it reads an
     * array of the same bytes (the same encoding detection and the same parser); only its buffering differs.
     */
    public static Optional<JsonNode> parse(InputStream utf8) {
        try {
            return Optional.ofNullable(MAPPER.readTree(utf8))
                    .filter(node -> !node.isMissingNode())
                    .filter(CanonicalJson::numbersInRange);
        } catch (IOException | RuntimeException e) {
            // Jackson reports some malformed numbers (exponent overflow) as NumberFormatException.
            return Optional.empty();
        }
    }

    private static boolean numbersInRange(JsonNode node) {
        if (node.isNumber()) {
            BigDecimal value = node.decimalValue();
            return Math.abs((long) value.precision() - value.scale() - 1) <= MAX_EXPONENT;
        }
        for (JsonNode child : node) {
            if (!numbersInRange(child)) {
                return false;
            }
        }
        return true;
    }

    /** Parses text this class wrote; it is always valid JSON. */
    static JsonNode parseCanonical(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("not canonical JSON: " + text, e);
        }
    }

    /** The canonical text of a JSON tree. */
    public static String write(JsonNode node) {
        StringBuilder out = new StringBuilder(256);
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.size());
                node.fields().forEachRemaining(members::add);
                // String.compareTo orders by UTF-16 code units, exactly the order RFC 8785 section 3.2.3 asks for.
                members.sort(Map.Entry.comparingByKey());
                out.append('{');
                for (int i = 0; i < members.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    writeString(members.get(i).getKey(), out);
                    out.append(':');
                    write(members.get(i).getValue(), out);
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                Iterator<JsonNode> elements = node.elements();
                boolean first = true;
                while (elements.hasNext()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    write(elements.next(), out);
                }
                out.append(']');
            }
            case STRING -> writeString(node.textValue(), out);
            case NUMBER -> out.append(number(node.decimalValue()));
            case BOOLEAN -> out.append(node.booleanValue());
            case NULL -> out.append("null");
            default -> throw new IllegalArgumentException("not a JSON value: " + node.getNodeType());
        }
    }

    /** The one spelling of a number; see the class comment for the rule. */
    static String number(BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = value.stripTrailingZeros();
        long exponent = (long) stripped.precision() - stripped.scale() - 1;
        if (exponent >= -6 && exponent <= 20) {
            return stripped.toPlainString();
        }
        String digits = stripped.unscaledValue().abs().toString();
        StringBuilder out = new StringBuilder(digits.length() + 8);
        if (stripped.signum() < 0) {
            out.append('-');
        }
        out.append(digits.charAt(0));
        if (digits.length() > 1) {
            out.append('.').append(digits, 1, digits.length());
        }
        return out.append('e').append(exponent > 0 ? "+" : "").append(exponent).toString();
    }

    private static void writeString(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
