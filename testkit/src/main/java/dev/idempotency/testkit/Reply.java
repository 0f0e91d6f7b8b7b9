package dev.idempotency.testkit;

import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One response as a check judges it: status, headers and the body's exact bytes. Not a record, because a
 * record would compare the body by reference. Immutable.
 */
final class Reply {
    /** The problem's top-level {@code type}, found without a JSON parser: the kit depends on nothing but JUnit. */
    private static final Pattern PROBLEM_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private static final int DESCRIBED_BODY_LENGTH = 300;

    private final int status;
    private final HttpHeaders headers;
    private final byte[] body;

    private Reply(int status, HttpHeaders headers, byte[] body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    static Reply of(HttpResponse<byte[]> response) {
        return new Reply(response.statusCode(), response.headers(), response.body());
    }

    int status() {
        return status;
    }

    Optional<String> header(String name) {
        return headers.firstValue(name);
    }

    boolean isReplay() {
        return header(FilterProtocol.REPLAYED_HEADER).map("true"::equals).orElse(false);
    }

    boolean isSuccess() {
        return status >= 200 && status < 300;
    }

    boolean isProblem() {
        return header("Content-Type")
                .map(type -> type.toLowerCase(Locale.ROOT).startsWith(FilterProtocol.PROBLEM_CONTENT_TYPE))
                .orElse(false);
    }

    /** The {@code type} member of a problem body, or empty for any other response. */
    Optional<String> problemType() {
        if (!isProblem()) {
            return Optional.empty();
        }
        Matcher type = PROBLEM_TYPE.matcher(new String(body, StandardCharsets.UTF_8));
        return type.find() ? Optional.of(type.group(1)) : Optional.empty();
    }

    boolean isProblem(int expectedStatus, String expectedType) {
        return status == expectedStatus
                && problemType().filter(expectedType::equals).isPresent();
    }

    /** The same status and byte for byte the same body; headers are not compared (a replay adds one). */
    boolean sameStatusAndBody(Reply other) {
        return status == other.status && Arrays.equals(body, other.body);
    }

    /** Status, the headers a check looks at, and the start of the body, for failure messages. */
    @Override
    public String toString() {
        String text = new String(body, StandardCharsets.UTF_8);
        String shown = text.length() > DESCRIBED_BODY_LENGTH
                ? text.substring(0, DESCRIBED_BODY_LENGTH) + "... (" + body.length + " bytes)"
                : text;
        StringBuilder described = new StringBuilder().append(status);
        for (String name : List.of("Content-Type", FilterProtocol.REPLAYED_HEADER, FilterProtocol.DEPRECATION_HEADER)) {
            header(name)
                    .ifPresent(value ->
                            described.append(' ').append(name).append(": ").append(value));
        }
        return described
                .append(' ')
                .append(shown.isEmpty() ? "(empty body)" : shown)
                .toString();
    }
}
