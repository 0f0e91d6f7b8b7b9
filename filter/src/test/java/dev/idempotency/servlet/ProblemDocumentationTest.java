package dev.idempotency.servlet;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Clients branch on problem types, so every type the filter can return must be documented. */
class ProblemDocumentationTest {
    private static final Path ERRORS_DOC = Path.of("../docs/errors.md");

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
}
