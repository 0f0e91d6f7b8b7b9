package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JDK of a given Java or newer on this machine, for a server that needs one (GlassFish 8 needs Java 21): the one the
 * tests run on when it is new enough, else the newest under {@code /usr/lib/jvm}, where Debian and Adoptium's packages
 * put theirs. Nothing is fetched: where there is none, the run that needs it says NOT RUN.
 */
public final class ModernJdk {
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"(1\\.)?(\\d+)", Pattern.MULTILINE);

    private ModernJdk() {}

    /** The JDK to run a server of Java {@code minimum} or newer on, if this machine has one. */
    public static Optional<Path> atLeast(int minimum) {
        Path own = Path.of(System.getProperty("java.home"));
        if (feature(own) >= minimum) {
            return Optional.of(own);
        }
        Path installed = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(installed)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(installed)) {
            return homes.filter(home -> Files.isRegularFile(home.resolve("bin/java")) && feature(home) >= minimum)
                    .max(Comparator.comparingInt(ModernJdk::feature));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Java feature release of the JDK in {@code home}, from its {@code release} file; 0 if it has none. */
    public static int feature(Path home) {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release)) {
            return 0;
        }
        try {
            Matcher version = JAVA_VERSION.matcher(Files.readString(release));
            return version.find() ? Integer.parseInt(version.group(2)) : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
