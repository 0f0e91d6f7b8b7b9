package dev.idempotency.adopt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.build.GeneratedSection;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report in docs/adopting-a-built-war.md is the command's own output on the sample: its classes, web.xml and
 * persistence.xml in a WAR without the filter jar, checked with its settings file.
 */
class ReportExampleDocumentationTest {
    private static final Path SAMPLE = Path.of("../sample-war/src/main");

    @TempDir
    Path directory;

    @Test
    void theDocumentedReportIsWhatTheCommandSaysOfTheSample() throws Exception {
        Path war = new TestWar(directory)
                .file("WEB-INF/web.xml", Files.readString(SAMPLE.resolve("webapp/WEB-INF/web.xml")))
                .file("WEB-INF/faces-config.xml", Files.readString(SAMPLE.resolve("webapp/WEB-INF/faces-config.xml")))
                .file("forms/top-up.xhtml", Files.readString(SAMPLE.resolve("webapp/forms/top-up.xhtml")))
                .file(
                        "forms/top-up-viewstate.xhtml",
                        Files.readString(SAMPLE.resolve("webapp/forms/top-up-viewstate.xhtml")))
                .file(
                        "WEB-INF/classes/META-INF/persistence.xml",
                        Files.readString(SAMPLE.resolve("resources/META-INF/persistence.xml")))
                .classesFrom(SAMPLE.resolve("java"))
                .write("sample-bare.war");
        Path settings = Files.copy(
                SAMPLE.resolve("webapp/WEB-INF/idempotency.properties"), directory.resolve("idempotency.properties"));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = AdoptCommand.run(
                new String[] {"check", war.toString(), "--settings", settings.toString()},
                new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Map.<String, String>of()::get);
        // As a user in the WAR's folder sees it, who names both files without a folder.
        String report = bytes.toString(StandardCharsets.UTF_8).replace(directory + "/", "");
        assertEquals(0, status, report);

        GeneratedSection.check(
                Path.of("../docs/adopting-a-built-war.md"), "adopt-report", "```\n" + report.strip() + "\n```");
    }
}
