package dev.idempotency.adopt;

import dev.idempotency.namespace.ServletNamespace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * The filter jar the command adds to a WAR: by default the one for the WAR's namespace among those the build put
 * inside the command's own jar (under {@value #EMBEDDED_DIRECTORY}, {@code idempotency-filter} and {@code
 * idempotency-filter-javax} exactly as released), or one given with {@code --filter-jar}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param fileName the jar's file name, kept in {@code WEB-INF/lib} so the WAR says which version it holds
 * @param namespace the Servlet namespace it is built for, told by the service file that installs its initializer
 */
record FilterJar(String fileName, byte[] bytes, ServletNamespace namespace) {
    static final String EMBEDDED_DIRECTORY = "META-INF/idempotency-adopt/";
    private static final String INITIALIZER = "dev.idempotency.IdempotencyInitializer";

    /** The WAR entry it is added as. */
    String entryName() {
        return WarFile.LIB + fileName;
    }

    /**
     * Why this jar cannot go into a WAR written for {@code war}'s namespace, naming the artifact that can; empty
     * when it matches. The wrong jar would be worse than none: its initializer would refuse the deployment.
     */
    Optional<String> mismatch(WarNamespace war) {
        if (namespace == war.namespace()) {
            return Optional.empty();
        }
        return Optional.of(fileName + " is " + namespace.artifact() + ", built for " + namespace.apiLevel()
                + ", but the WAR is " + war.level() + ": use " + war.artifact()
                + " (without --filter-jar the command adds the one that matches)");
    }

    /**
     * The jar built into the command for {@code namespace}: read from the command's jar, or from its classes
     * directory when the command runs unpackaged (its tests).
     *
     * @throws IOException if the command carries no filter jar for the namespace, or two
     */
    static FilterJar embedded(ServletNamespace namespace) throws IOException {
        return choose(embeddedJars(), namespace);
    }

    /** The one of {@code jars} built for {@code namespace}. */
    static FilterJar choose(List<FilterJar> jars, ServletNamespace namespace) throws IOException {
        List<FilterJar> matching =
                jars.stream().filter(jar -> jar.namespace() == namespace).collect(Collectors.toList());
        if (matching.size() != 1) {
            throw new IOException("the command carries " + matching.size() + " filter jars for "
                    + namespace.apiLevel() + " (" + namespace.artifact() + ") among "
                    + jars.stream().map(FilterJar::fileName).collect(Collectors.toList())
                    + "; give one with --filter-jar");
        }
        return matching.get(0);
    }

    private static List<FilterJar> embeddedJars() throws IOException {
        Path location;
        try {
            location = Path.of(FilterJar.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IOException("cannot tell where the command runs from: " + e.getMessage(), e);
        }
        if (Files.isDirectory(location)) {
            Path directory = location.resolve(EMBEDDED_DIRECTORY);
            List<Path> files;
            try (Stream<Path> listed = Files.isDirectory(directory) ? Files.list(directory) : Stream.empty()) {
                files = listed.filter(file -> file.toString().endsWith(".jar"))
                        .sorted()
                        .collect(Collectors.toList());
            }
            if (files.isEmpty()) {
                throw new IOException("the command carries no filter jar in " + directory
                        + " (built by mvn package); give one with --filter-jar");
            }
            List<FilterJar> jars = new ArrayList<>();
            for (Path file : files) {
                jars.add(fromFile(file));
            }
            return jars;
        }
        try (ZipFile self = new ZipFile(location.toFile())) {
            List<FilterJar> jars = new ArrayList<>();
            for (ZipEntry entry : Collections.list(self.entries())) {
                if (entry.getName().startsWith(EMBEDDED_DIRECTORY)
                        && entry.getName().endsWith(".jar")) {
                    try (InputStream in = self.getInputStream(entry)) {
                        jars.add(checked(entry.getName().substring(EMBEDDED_DIRECTORY.length()), in.readAllBytes()));
                    }
                }
            }
            if (jars.isEmpty()) {
                throw new IOException(
                        "the command's jar " + location + " carries no filter jar; give one with" + " --filter-jar");
            }
            return jars;
        }
    }

    /** @throws IOException if the file cannot be read or is not the filter jar */
    static FilterJar fromFile(Path jar) throws IOException {
        return checked(jar.getFileName().toString(), Files.readAllBytes(jar));
    }

    /** Refuses a jar that could not install the filter, so no WAR is written with it. */
    static FilterJar checked(String fileName, byte[] bytes) throws IOException {
        Optional<ServletNamespace> namespace = namespaceOf(bytes);
        if (namespace.isEmpty()) {
            throw new IOException(fileName + " is not the idempotency filter jar: it lacks "
                    + WarCheck.FILTER_CLASS_ENTRY + " or a META-INF/services/<javax|jakarta>.servlet."
                    + "ServletContainerInitializer that names " + INITIALIZER);
        }
        return new FilterJar(fileName, bytes, namespace.get());
    }

    /**
     * The namespace a filter jar is built for: the one whose initializer service file names the filter's
     * initializer (the other one names the initializer that only refuses), or empty if it is not the filter jar.
     */
    static Optional<ServletNamespace> namespaceOf(byte[] jarBytes) throws IOException {
        boolean hasFilter = false;
        ServletNamespace found = null;
        try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(jarBytes))) {
            for (ZipEntry entry = jar.getNextEntry(); entry != null; entry = jar.getNextEntry()) {
                hasFilter |= entry.getName().equals(WarCheck.FILTER_CLASS_ENTRY);
                for (ServletNamespace namespace : ServletNamespace.values()) {
                    if (entry.getName().equals(serviceFile(namespace))
                            && new String(jar.readAllBytes(), StandardCharsets.UTF_8)
                                    .lines()
                                    .anyMatch(line -> line.strip().equals(INITIALIZER))) {
                        found = namespace;
                    }
                }
            }
        }
        return hasFilter ? Optional.ofNullable(found) : Optional.empty();
    }

    private static String serviceFile(ServletNamespace namespace) {
        return "META-INF/services/" + namespace.name().toLowerCase(Locale.ROOT)
                + ".servlet.ServletContainerInitializer";
    }
}
