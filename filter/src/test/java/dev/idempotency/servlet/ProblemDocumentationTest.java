package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Clients branch on problem types, so every type the filter can return must be documented, and every type the
 * reference documents must be one the filter can return.
 */
class ProblemDocumentationTest {
    private static final Path ERRORS_DOC = Path.of("../docs/errors.md");

    /** A section of its own per type: {@code ### 422 `key-reused`}. */
    private static final Pattern SECTION = Pattern.compile("(?m)^### \\d{3} `([a-z-]+)`");

    @Test
    void everyProblemTypeIsListedInErrorsDocWithItsStatusAndTitle() throws IOException {
        String doc = Files.readString(ERRORS_DOC);
        assertTrue(doc.contains(Problem.TYPE_PREFIX), "the type prefix is missing from " + ERRORS_DOC);
        for (Problem problem : Problem.values()) {
            String slug = problem.type().substring(Problem.TYPE_PREFIX.length());
            String row = "| " + problem.status() + " | `" + slug + "` | " + problem.title() + " |";
            assertTrue(doc.contains(row), "the row '" + row + "' is missing from " + ERRORS_DOC);
            assertTrue(
                    doc.contains("### " + problem.status() + " `" + slug + "`"),
                    "the section on " + slug + " is missing from " + ERRORS_DOC);
        }
    }

    @Test
    void everyDocumentedProblemTypeIsOneTheFilterReturns() throws IOException {
        Set<String> documented = new TreeSet<>();
        Matcher section = SECTION.matcher(Files.readString(ERRORS_DOC));
        while (section.find()) {
            documented.add(section.group(1));
        }
        Set<String> returned = Arrays.stream(Problem.values())
                .map(problem -> problem.type().substring(Problem.TYPE_PREFIX.length()))
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(returned, documented, "the problem types with a section in " + ERRORS_DOC);
    }
}
