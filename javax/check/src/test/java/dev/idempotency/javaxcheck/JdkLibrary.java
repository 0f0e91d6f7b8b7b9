package dev.idempotency.javaxcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The class library of one real Java runtime, read as class files: Java 8's jars under {@code jre/lib}, or the
 * module image of Java 9 and later through that runtime's own {@code jrt} file system. The runtimes are Debian's
 * Java 8 and 11, which the build fetches into {@code old.jdks} (build-tools/old-jdks.sh).
 *
 * <p>Not thread-safe.
 */
final class JdkLibrary {
    private final String name;
    private final Map<String, byte[]> classes;

    private JdkLibrary(String name, Map<String, byte[]> classes) {
        this.name = name;
        this.classes = classes;
    }

    /** Each runtime's library, read once: Java 11's module image alone is 143 MB. */
    private static final Map<Integer, Optional<JdkLibrary>> READ = new HashMap<>();

    /** The Java {@code feature} runtime the build fetched, if it is there. */
    static synchronized Optional<JdkLibrary> of(int feature) {
        return READ.computeIfAbsent(feature, JdkLibrary::read);
    }

    private static Optional<JdkLibrary> read(int feature) {
        Path home = Path.of(System.getProperty("old.jdks", "target/no-old-jdks"), "java" + feature);
        if (!Files.isRegularFile(home.resolve("bin/java"))) {
            return Optional.empty();
        }
        try {
            return Optional.of(new JdkLibrary("Java " + feature, feature == 8 ? fromJars(home) : fromImage(home)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the class library of " + home, e);
        }
    }

    /** Where a test that needs Java {@code feature} says, loudly, that it did not run. */
    static String absent(int feature) {
        return "NOT RUN: no Java " + feature + " runtime in " + System.getProperty("old.jdks")
                + " (build-tools/old-jdks.sh fetches it from Debian's packages; it needs apt-get)";
    }

    @Override
    public String toString() {
        return name;
    }

    /** The class file of {@code internalName}, if this Java has the class. */
    Optional<InputStream> classFile(String internalName) {
        byte[] bytes = classes.get(internalName);
        return bytes == null ? Optional.empty() : Optional.of(new java.io.ByteArrayInputStream(bytes));
    }

    private static Map<String, byte[]> fromJars(Path home) throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        try (Stream<Path> files = Files.walk(home.resolve("jre/lib"))) {
            for (Path jar :
                    (Iterable<Path>) files.filter(file -> file.toString().endsWith(".jar"))::iterator) {
                try (JarFile file = new JarFile(jar.toFile())) {
                    for (var entry : (Iterable<java.util.jar.JarEntry>) file.stream()::iterator) {
                        if (entry.getName().endsWith(".class")) {
                            classes.putIfAbsent(
                                    entry.getName().substring(0, entry.getName().length() - ".class".length()),
                                    file.getInputStream(entry).readAllBytes());
                        }
                    }
                }
            }
        }
        return classes;
    }

    private static Map<String, byte[]> fromImage(Path home) throws IOException {
        Map<String, byte[]> classes = new HashMap<>();
        try (FileSystem image = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", home.toString()));
                Stream<Path> files = Files.walk(image.getPath("/modules"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                // /modules/<module>/<package path>/<Name>.class
                String path = file.subpath(2, file.getNameCount()).toString();
                if (!path.endsWith("module-info.class")) {
                    classes.putIfAbsent(path.substring(0, path.length() - ".class".length()), Files.readAllBytes(file));
                }
            }
        }
        return classes;
    }
}
