package dev.idempotency.javaxcheck;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The jars as the build released them, copied by the module's pom into {@code target/checked-jars/<group>/}: {@code
 * jakarta}, {@code javax}, {@code neutral} (the test kit) and {@code ee8-api} (Jakarta EE 8 and MicroProfile 4.1).
 */
final class ReleasedJars {
    private ReleasedJars() {}

    /** Every jar of one group. */
    static List<Path> in(String group) {
        Path directory = Path.of(System.getProperty("checked.jars", "target/checked-jars"), group);
        try (var files = Files.list(directory)) {
            List<Path> jars = files.filter(file -> file.toString().endsWith(".jar"))
                    .sorted()
                    .toList();
            if (jars.isEmpty()) {
                throw new IllegalStateException("no jar in " + directory + "; run mvn verify, which copies them");
            }
            return jars;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory + "; run mvn verify, which copies them", e);
        }
    }

    /** Every entry of {@code jar} that is a file, by name, with its bytes. */
    static Map<String, byte[]> entries(Path jar) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : new ArrayList<>(file.stream().toList())) {
                if (!entry.isDirectory()) {
                    entries.put(entry.getName(), file.getInputStream(entry).readAllBytes());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        return entries;
    }
}
