package dev.idempotency.openapi;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.config.Operation;
import dev.idempotency.servlet.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The statuses and problem types docs/openapi.md promises are the ones the document gets. */
class OpenApiDocumentationTest {
    private static final Path OPENAPI_DOC = Path.of("../docs/openapi.md");

    @Test
    void everyProblemResponseIsListedInOpenApiDocWithItsTypes() throws IOException {
        String doc = Files.readString(OPENAPI_DOC);
        Operation everyOption =
                Operation.parse("POST /api/orders = place-order:v1 replay-roles=clerk after-expiry=refuse");
        OpenApiAdditions.problemsByStatus(everyOption).forEach((status, problems) -> {
            String row = "| " + status + " | " + slugs(problems);
            assertTrue(doc.contains(row), "a row starting '" + row + "' is missing from " + OPENAPI_DOC);
        });
    }

    private static String slugs(List<Problem> problems) {
        return problems.stream()
                .map(problem -> "`" + problem.type().substring(Problem.TYPE_PREFIX.length()) + "`")
                .collect(Collectors.joining(", "));
    }
}
