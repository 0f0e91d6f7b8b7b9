package dev.idempotency.build;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A part of a document that the build writes, not a person: the text between {@code <!-- generated:NAME -->} and the
 * next {@code <!-- end -->}. A test computes what the section must say from the code (a check list, an enum, the
 * pom) and calls {@link #check}; the committed text either equals it or the test fails with the expected text, so a
 * list or a count in the docs cannot drift from what the build knows.
 *
 * <p>{@code -Ddocs.update=true} on the test run rewrites the section instead of failing: review the diff, then
 * commit it. Not thread-safe on one document; each document is checked by one test.
 */
public final class GeneratedSection {
    /** The system property that makes {@link #check} rewrite a differing section instead of failing. */
    public static final String UPDATE_PROPERTY = "docs.update";

    private static final String END = "<!-- end -->";

    private GeneratedSection() {}

    /**
     * Holds the section {@code name} of {@code document} to {@code expected}.
     *
     * @throws AssertionError when the document has no such section, or (without {@code -Ddocs.update=true}) when
     *     the section says something else; the message holds the expected text
     */
    public static void check(Path document, String name, String expected) {
        String start = "<!-- generated:" + name + " -->";
        String text = read(document);
        int from = text.indexOf(start);
        if (from < 0) {
            throw new AssertionError(document + " has no section " + start + " … " + END
                    + "; add the two markers where the text belongs, then run with -D" + UPDATE_PROPERTY + "=true");
        }
        int bodyStart = from + start.length();
        int to = text.indexOf(END, bodyStart);
        if (to < 0) {
            throw new AssertionError(document + ": " + start + " has no " + END + " after it");
        }
        String body = "\n" + expected.strip() + "\n";
        if (text.substring(bodyStart, to).equals(body)) {
            return;
        }
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            write(document, text.substring(0, bodyStart) + body + text.substring(to));
            return;
        }
        throw new AssertionError(document + ": the section " + name + " differs from what the build produces."
                + " Rerun the test with -D" + UPDATE_PROPERTY + "=true to rewrite it, or make it say exactly:\n"
                + start + body + END);
    }

    private static String read(Path document) {
        try {
            return Files.readString(document, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path document, String text) {
        try {
            Files.writeString(document, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
