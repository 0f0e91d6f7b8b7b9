package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Operators write their entries from the reference, so its table of operation options must say what the
 * declarations in {@link OperationOptions} say: the same options, in the same order, with the same format,
 * default and meaning.
 */
class OperationOptionsDocumentationTest {
    private static final Path CONFIGURATION_DOC = Path.of("../docs/configuration.md");
    private static final String SECTION = "#### Options of an operation";

    /** A cell boundary: a {@code |} that Markdown does not see escaped as {@code \|}. */
    private static final Pattern CELL = Pattern.compile("(?<!\\\\)\\|");

    @Test
    void optionsTableListsEveryDeclaredOptionInOrderWithItsFormatDefaultAndMeaning() throws IOException {
        Map<String, List<String>> declared = new LinkedHashMap<>();
        OperationOptions.ALL.forEach(option -> declared.put(
                "`" + option.written() + "`", List.of(option.format(), option.defaultText(), option.meaning())));

        assertEquals(declared, documentedRows(), "options table under '" + SECTION + "' in " + CONFIGURATION_DOC);
    }

    @Test
    void theOperationsSettingNamesEveryOption() {
        OperationOptions.ALL.forEach(option -> assertTrue(
                Settings.OPERATIONS.format().contains("`" + option.written() + "`"), Settings.OPERATIONS.format()));
    }

    /** The rows of the table in the options section, first cell to the other three, {@code \|} unescaped. */
    private static Map<String, List<String>> documentedRows() throws IOException {
        String doc = Files.readString(CONFIGURATION_DOC);
        int start = doc.indexOf(SECTION);
        assertTrue(start >= 0, "no '" + SECTION + "' in " + CONFIGURATION_DOC);
        int end = doc.indexOf("\n#", start + SECTION.length());
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : doc.substring(start, end < 0 ? doc.length() : end).split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            List<String> cells = Arrays.stream(CELL.split(line.substring(1, line.length() - 1)))
                    .map(cell -> cell.trim().replace("\\|", "|"))
                    .toList();
            assertEquals(4, cells.size(), "cells of " + line);
            rows.put(cells.get(0), cells.subList(1, 4));
        }
        return rows;
    }
}
