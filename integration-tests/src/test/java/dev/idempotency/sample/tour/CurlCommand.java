package dev.idempotency.sample.tour;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code curl} command as the docs write it (the options {@code -i -s -u -H -d} and a URL, single-quoted
 * arguments, lines continued with a backslash), replayed with Java's HTTP client so the tour needs no curl.
 * Immutable and thread-safe.
 */
record CurlCommand(String user, String password, Map<String, String> headers, String data, URI url) {

    /** Parses the command; an option the docs do not use fails, so the page cannot drift out of what is checked. */
    static CurlCommand parse(String command) {
        List<String> words = words(command.replace("\\\n", " "));
        if (words.isEmpty() || !words.get(0).equals("curl")) {
            throw new IllegalArgumentException("not a curl command: " + command);
        }
        String user = null;
        String password = null;
        Map<String, String> headers = new LinkedHashMap<>();
        String data = null;
        URI url = null;
        for (int i = 1; i < words.size(); i++) {
            String word = words.get(i);
            switch (word) {
                case "-i", "-s", "-si" -> {}
                case "-u" -> {
                    String[] credentials = words.get(++i).split(":", 2);
                    user = credentials[0];
                    password = credentials[1];
                }
                case "-H" -> {
                    String[] header = words.get(++i).split(":", 2);
                    headers.put(header[0].trim(), header[1].trim());
                }
                case "-d" -> data = words.get(++i);
                default -> {
                    if (word.startsWith("-") || url != null) {
                        throw new IllegalArgumentException(
                                "the tour's replay does not know '" + word + "' in: " + command);
                    }
                    url = URI.create(word);
                }
            }
        }
        return new CurlCommand(user, password, Map.copyOf(headers), data, url);
    }

    /** The request curl would send, to {@code origin} (such as {@code http://localhost:8280}) instead of the page's. */
    HttpRequest toRequest(String pageOrigin, String origin) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(url.toString().replace(pageOrigin, origin)));
        if (user != null) {
            String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
            request.header("Authorization", "Basic " + token);
        }
        headers.forEach(request::header);
        if (data != null) {
            // curl -d: a POST, with a form content type unless the command names one.
            if (!headers.containsKey("Content-Type")) {
                request.header("Content-Type", "application/x-www-form-urlencoded");
            }
            request.POST(HttpRequest.BodyPublishers.ofString(data));
        } else {
            request.GET();
        }
        return request.build();
    }

    /** The shell's words: split on blanks, with single quotes keeping blanks and removed. */
    private static List<String> words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        boolean inWord = false;
        for (char c : line.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                inWord = true;
            } else if (Character.isWhitespace(c) && !quoted) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }
}
