package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The docs name tests as proof ({@code `RolloutIT`}, {@code `RolloutIT.walksOff…`}): each named test class must
 * exist in some module's test sources, and each named method in that class, so a renamed test cannot leave its
 * proof pointing at nothing.
 */
class DocumentedTestNamesTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern TEST_NAME =
            Pattern.compile("`([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*(?:IT|Test))(?:\\.([a-z][A-Za-z0-9]*))?`");

    @Test
    void everyTestTheDocsNameExists() throws IOException {
        Map<String, String> sources = testSources();
        List<String> missing = new ArrayList<>();
        List<Path> documents = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("CONTRIBUTING.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(documents::add);
        }
        for (Path document : documents) {
            Matcher name = TEST_NAME.matcher(Files.readString(document));
            while (name.find()) {
                String source = sources.get(name.group(1));
                if (source == null) {
                    missing.add(document.getFileName() + ": no test class " + name.group(1));
                } else if (name.group(2) != null && !source.contains(" " + name.group(2) + "(")) {
                    missing.add(document.getFileName() + ": no method " + name.group());
                }
            }
        }
        assertEquals(List.of(), missing);
    }

    /** Every test source file of the modules (and of javax/'s) by its class name. */
    private static Map<String, String> testSources() throws IOException {
        Map<String, String> sources = new HashMap<>();
        List<Path> modules = new ArrayList<>();
        for (Path parent : List.of(ROOT, ROOT.resolve("javax"))) {
            try (Stream<Path> children = Files.list(parent)) {
                children.sorted().forEach(modules::add);
            }
        }
        for (Path module : modules) {
            Path tests = module.resolve("src/test/java");
            if (!Files.isDirectory(tests)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(tests)) {
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    String name = file.getFileName().toString();
                    sources.put(name.substring(0, name.length() - ".java".length()), Files.readString(file));
                }
            }
        }
        return sources;
    }
}
