package dev.idempotency.servlet;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Reads and validates the idempotency key header, before any database work.
 *
 * <p>A key is 1 to {@value #MAX_LENGTH} printable ASCII characters (0x20 to 0x7E) and not blank. It may
 * be sent bare ({@code checkout-42}) or as an RFC 8941 sf-string ({@code "checkout-42"}); both spellings
 * are the same key. The header must appear once.
 *
 * <p>Stateless and thread-safe.
 */
public final class IdempotencyKeyHeader {
    public static final int MAX_LENGTH = 255;

    private final String name;

    public IdempotencyKeyHeader(String name) {
        this.name = name;
    }

    /**
     * @return the key, or empty if the header is absent
     * @throws ProblemException {@link Problem#KEY_INVALID} if the header is repeated or the key is malformed
     */
    public Optional<String> read(HttpServletRequest request) throws ProblemException {
        List<String> values = Collections.list(request.getHeaders(name));
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            throw invalid("the " + name + " header was sent " + values.size() + " times; send it exactly once");
        }
        String raw = values.get(0);
        return Optional.of(validated(raw.startsWith("\"") ? unquote(raw) : raw, "the " + name + " header"));
    }

    /**
     * The key as sent, if it is one: 1 to {@value #MAX_LENGTH} printable ASCII characters, not blank.
     *
     * @param where names the key's source in messages, such as {@code the Idempotency-Key header}
     * @throws ProblemException {@link Problem#KEY_INVALID} naming the source and what to send instead
     */
    static String validated(String key, String where) throws ProblemException {
        if (key.trim().isEmpty()) {
            throw invalid(where + " is empty; send a unique key such as a UUID");
        }
        if (key.length() > MAX_LENGTH) {
            throw invalid(where + " is " + key.length() + " characters long; send at most " + MAX_LENGTH);
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c > 0x7E) {
                throw invalid(where + " has a character outside printable ASCII at position " + i
                        + "; use letters, digits and punctuation only");
            }
        }
        return key;
    }

    private String unquote(String raw) throws ProblemException {
        StringBuilder key = new StringBuilder(raw.length());
        for (int i = 1; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\' && i + 1 < raw.length() && (raw.charAt(i + 1) == '"' || raw.charAt(i + 1) == '\\')) {
                key.append(raw.charAt(++i));
            } else if (c == '"') {
                if (i != raw.length() - 1) {
                    break;
                }
                return key.toString();
            } else if (c == '\\') {
                break;
            } else {
                key.append(c);
            }
        }
        throw invalid("the " + name + " header starts with '\"' but is not a valid RFC 8941 string; send the key"
                + " bare or as one quoted string");
    }

    private static ProblemException invalid(String detail) {
        return new ProblemException(Problem.KEY_INVALID, detail);
    }
}
