package dev.idempotency.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Operators configure from the reference, so its settings table must say what the declarations in {@link
 * Settings} say: the same settings, in the same order, with the same format and default.
 */
class SettingsDocumentationTest {
    private static final Path CONFIGURATION_DOC = Path.of("../docs/configuration.md");

    /** A row of the settings table: {@code | [`name`](#name) | format | default |}. */
    private static final Pattern TABLE_ROW =
            Pattern.compile("(?m)^\\| \\[`([a-z-]+)`]\\(#([a-z-]+)\\) \\| (.+) \\| (.+) \\|$");

    /** A section of its own per setting: {@code ### `name`}. */
    private static final Pattern SECTION = Pattern.compile("(?m)^### `([a-z-]+)`$");

    @Test
    void settingsTableListsEveryDeclaredSettingInOrderWithItsFormatAndDefault() throws IOException {
        Map<String, List<String>> rows = new LinkedHashMap<>();
        Matcher row = TABLE_ROW.matcher(Files.readString(CONFIGURATION_DOC));
        while (row.find()) {
            assertEquals(row.group(1), row.group(2), "the row of " + row.group(1) + " links to another section");
            rows.put(row.group(1), List.of(row.group(3), row.group(4)));
        }
        Map<String, List<String>> declared = new LinkedHashMap<>();
        Settings.ALL.forEach(setting -> declared.put(setting.name(), List.of(setting.format(), setting.defaultText())));
        assertEquals(declared, rows, "settings table in " + CONFIGURATION_DOC);
    }

    @Test
    void everyAcceptedSettingHasItsOwnSection() throws IOException {
        Set<String> sections = new TreeSet<>();
        Matcher section = SECTION.matcher(Files.readString(CONFIGURATION_DOC));
        while (section.find()) {
            sections.add(section.group(1));
        }
        assertEquals(new TreeSet<>(SettingsParser.KNOWN_SETTINGS), sections, "sections of " + CONFIGURATION_DOC);
    }
}
