package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compatibility matrix stands in two places a new user reads first, the README and getting-started: the two
 * copies must say the same, so that a server added to one is not missing from the other.
 */
class CompatibilityMatrixTest {
    private static final String HEADER = "| server | EE level | Java | artifact | what proves it |";

    @Test
    void theReadmeAndGettingStartedShowTheSameMatrix() throws IOException {
        List<String> readme = matrix(Path.of("../README.md"));
        assertFalse(readme.isEmpty(), "README.md has no compatibility matrix");
        assertEquals(readme, matrix(Path.of("../docs/getting-started.md")));
    }

    /** The matrix's lines: from its header to the first line that is not a table row. */
    private static List<String> matrix(Path document) throws IOException {
        List<String> lines = Files.readAllLines(document);
        int header = lines.indexOf(HEADER);
        if (header < 0) {
            return List.of();
        }
        int end = header;
        while (end < lines.size() && lines.get(end).startsWith("|")) {
            end++;
        }
        return lines.subList(header, end);
    }
}
