package dev.idempotency.adopt;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * A WAR read as an archive, never deployed or class-loaded: its entry names in order, and the files the check
 * needs from it and from the jars in {@code WEB-INF/lib}.
 *
 * <p>Reads the whole archive into memory once; not thread-safe.
 */
final class WarFile {
    static final String WEB_XML = "WEB-INF/web.xml";
    static final String CLASSES = "WEB-INF/classes/";
    static final String LIB = "WEB-INF/lib/";

    /** A file found in the WAR or in one of its library jars. */
    record Found(String where, String name, byte[] bytes) {}

    private final Path path;
    private final Map<String, byte[]> entries;

    private WarFile(Path path, Map<String, byte[]> entries) {
        this.path = path;
        this.entries = entries;
    }

    /** @throws IOException if the file cannot be read or is not a zip archive */
    static WarFile read(Path path) throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(path.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                if (!entry.isDirectory()) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        entries.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
        return new WarFile(path, entries);
    }

    Path path() {
        return path;
    }

    /** The names of its files, in the archive's order. */
    List<String> names() {
        return List.copyOf(entries.keySet());
    }

    Optional<byte[]> entry(String name) {
        return Optional.ofNullable(entries.get(name));
    }

    /** The names of the jars in {@code WEB-INF/lib} (not in its subdirectories, which no container reads). */
    List<String> libraryJars() {
        return entries.keySet().stream()
                .filter(name -> name.startsWith(LIB) && name.endsWith(".jar"))
                .filter(name -> name.indexOf('/', LIB.length()) < 0)
                .collect(Collectors.toList());
    }

    /** A file under {@code WEB-INF/classes}, and the same file inside every library jar, by its class-path name. */
    List<Found> onClassPath(String name) {
        List<Found> found = new ArrayList<>();
        entry(CLASSES + name).ifPresent(bytes -> found.add(new Found(CLASSES + name, name, bytes)));
        for (String jar : libraryJars()) {
            forEachInJar(jar, (entryName, bytes) -> {
                if (entryName.equals(name)) {
                    found.add(new Found(jar + "!/" + name, name, bytes));
                }
            });
        }
        return found;
    }

    /** Every class file under {@code WEB-INF/classes} and in every library jar but those {@code skipJar} names. */
    List<Found> classFiles(Predicate<String> skipJar) {
        List<Found> found = new ArrayList<>();
        entries.forEach((name, bytes) -> {
            if (name.startsWith(CLASSES) && name.endsWith(".class")) {
                found.add(new Found(CLASSES, name.substring(CLASSES.length()), bytes));
            }
        });
        for (String jar : libraryJars()) {
            if (!skipJar.test(jar)) {
                forEachInJar(jar, (entryName, bytes) -> {
                    if (entryName.endsWith(".class") && !entryName.startsWith("META-INF/")) {
                        found.add(new Found(jar, entryName, bytes));
                    }
                });
            }
        }
        return found;
    }

    /** Whether a library jar holds this entry, such as a class file. */
    boolean jarHolds(String jar, String entryName) {
        boolean[] held = {false};
        forEachInJar(jar, (name, bytes) -> held[0] |= name.equals(entryName));
        return held[0];
    }

    private void forEachInJar(String jar, BiConsumer<String, byte[]> action) {
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(entries.get(jar)))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (!entry.isDirectory()) {
                    action.accept(entry.getName(), in.readAllBytes());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + jar + " in " + path, e);
        }
    }
}
