package dev.idempotency.adopt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** A small WAR made in a test: files, classes compiled from source against the Jakarta EE API, library jars. */
final class TestWar {
    private static final Pattern TYPE_NAME =
            Pattern.compile("(?s)package\\s+([\\w.]+);.*?(?:class|interface|@interface)\\s+(\\w+)");

    private final Path workDirectory;
    private final Map<String, byte[]> entries = new LinkedHashMap<>();

    TestWar(Path workDirectory) {
        this.workDirectory = workDirectory;
    }

    TestWar file(String name, String text) {
        entries.put(name, text.getBytes(StandardCharsets.UTF_8));
        return this;
    }

    TestWar file(String name, byte[] bytes) {
        entries.put(name, bytes);
        return this;
    }

    /** Compiles the sources (each a whole file with its package) into {@code WEB-INF/classes}. */
    TestWar classes(String... sources) throws IOException {
        compile(sources).forEach((name, bytes) -> entries.put(WarFile.CLASSES + name, bytes));
        return this;
    }

    /** Compiles every {@code .java} file under {@code sourceRoot}, as they are, into {@code WEB-INF/classes}. */
    TestWar classesFrom(Path sourceRoot) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(sourceRoot)) {
            files = walk.filter(file -> file.toString().endsWith(".java"))
                    .sorted()
                    .toList();
        }
        javac(files).forEach((name, bytes) -> entries.put(WarFile.CLASSES + name, bytes));
        return this;
    }

    /** Compiles the sources into a library jar {@code WEB-INF/lib/<jarName>}, with extra files beside them. */
    TestWar library(String jarName, Map<String, String> files, String... sources) throws IOException {
        Map<String, byte[]> content = new LinkedHashMap<>(compile(sources));
        files.forEach((name, text) -> content.put(name, text.getBytes(StandardCharsets.UTF_8)));
        entries.put(WarFile.LIB + jarName, zip(content));
        return this;
    }

    Path write(String fileName) throws IOException {
        Path war = workDirectory.resolve(fileName);
        Files.write(war, zip(entries));
        return war;
    }

    static byte[] zip(Map<String, byte[]> content) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream closing = bytes;
                ZipOutputStream zip = new ZipOutputStream(closing)) {
            long time = 1_700_000_000_000L;
            for (Map.Entry<String, byte[]> entry : content.entrySet()) {
                ZipEntry zipEntry = new ZipEntry(entry.getKey());
                zipEntry.setTime(time += 60_000);
                zip.putNextEntry(zipEntry);
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private Map<String, byte[]> compile(String... sources) throws IOException {
        if (sources.length == 0) {
            return Map.of();
        }
        Path sourceDirectory = Files.createTempDirectory(workDirectory, "sources");
        List<Path> files = new ArrayList<>();
        for (String source : sources) {
            Matcher type = TYPE_NAME.matcher(source);
            assertTrue(type.find(), "a test source names its package and type: " + source);
            Path file = sourceDirectory.resolve(type.group(1).replace('.', '/') + "/" + type.group(2) + ".java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, source);
            files.add(file);
        }
        return javac(files);
    }

    private Map<String, byte[]> javac(List<Path> files) throws IOException {
        Path classDirectory = Files.createTempDirectory(workDirectory, "classes");
        List<String> arguments = new ArrayList<>(List.of(
                "-classpath", System.getProperty("java.class.path"), "-d", classDirectory.toString(), "-nowarn"));
        files.forEach(file -> arguments.add(file.toString()));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = compiler.run(null, errors, errors, arguments.toArray(String[]::new));
        assertTrue(status == 0, "the test sources compile: " + errors);
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (Stream<Path> compiled = Files.walk(classDirectory)) {
            for (Path file : compiled.filter(Files::isRegularFile).sorted().toList()) {
                classes.put(classDirectory.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
            }
        }
        return classes;
    }
}
