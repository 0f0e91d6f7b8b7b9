package dev.idempotency.adopt;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * The filter jar the command adds to a WAR: by default the one the build put inside the command's own jar (under
 * {@value #EMBEDDED_DIRECTORY}, the filter exactly as released), or one given with {@code --filter-jar}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param fileName the jar's file name, kept in {@code WEB-INF/lib} so the WAR says which version it holds
 */
record FilterJar(String fileName, byte[] bytes) {
    static final String EMBEDDED_DIRECTORY = "META-INF/idempotency-adopt/";
    private static final String INITIALIZER_SERVICE = "META-INF/services/jakarta.servlet.ServletContainerInitializer";

    /** The WAR entry it is added as. */
    String entryName() {
        return WarFile.LIB + fileName;
    }

    /**
     * The jar built into the command: read from the command's jar, or from its classes directory when the
     * command runs unpackaged (its tests).
     *
     * @throws IOException if the command carries no filter jar or exactly one cannot be told apart
     */
    static FilterJar embedded() throws IOException {
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
            List<Path> jars;
            try (Stream<Path> files = Files.isDirectory(directory) ? Files.list(directory) : Stream.empty()) {
                jars = files.filter(file -> file.toString().endsWith(".jar")).toList();
            }
            if (jars.size() != 1) {
                throw new IOException("the command carries " + jars.size() + " filter jars in " + directory
                        + " (built by mvn package); give one with --filter-jar");
            }
            return fromFile(jars.get(0));
        }
        try (ZipFile self = new ZipFile(location.toFile())) {
            List<? extends ZipEntry> jars = Collections.list(self.entries()).stream()
                    .filter(entry -> entry.getName().startsWith(EMBEDDED_DIRECTORY)
                            && entry.getName().endsWith(".jar"))
                    .toList();
            if (jars.size() != 1) {
                throw new IOException("the command's jar " + location + " carries " + jars.size()
                        + " filter jars; give one with --filter-jar");
            }
            try (InputStream in = self.getInputStream(jars.get(0))) {
                return checked(jars.get(0).getName().substring(EMBEDDED_DIRECTORY.length()), in.readAllBytes());
            }
        }
    }

    /** @throws IOException if the file cannot be read or is not the filter jar */
    static FilterJar fromFile(Path jar) throws IOException {
        return checked(jar.getFileName().toString(), Files.readAllBytes(jar));
    }

    /** Refuses a jar that could not install the filter, so no WAR is written with it. */
    private static FilterJar checked(String fileName, byte[] bytes) throws IOException {
        Set<String> names = new HashSet<>();
        try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(bytes))) {
            for (ZipEntry entry = jar.getNextEntry(); entry != null; entry = jar.getNextEntry()) {
                names.add(entry.getName());
            }
        }
        if (!names.contains(WarCheck.FILTER_CLASS_ENTRY) || !names.contains(INITIALIZER_SERVICE)) {
            throw new IOException(fileName + " is not the idempotency filter jar: it lacks "
                    + WarCheck.FILTER_CLASS_ENTRY + " or " + INITIALIZER_SERVICE);
        }
        return new FilterJar(fileName, bytes);
    }
}
