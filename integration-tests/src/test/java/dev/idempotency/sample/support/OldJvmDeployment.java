package dev.idempotency.sample.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.Node;
import org.jboss.shrinkwrap.api.asset.ByteArrayAsset;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import xyz.wagyourtail.jvmdg.cli.Main;

/**
 * A test deployment for a server that runs on Java 8 or 11 (the build's old-JVM runs): the classes the tests
 * compiled for Java 17 under {@code WEB-INF/classes} are downgraded to Java 8 with JvmDowngrader, and its API stubs,
 * themselves downgraded, go beside them as {@code WEB-INF/lib/jvmdg-api.jar} (LGPL-2.1, in test deployments only).
 * The jars in {@code WEB-INF/lib} are deployed as they are: the filter's was built for these JVMs with no stub at all
 * (build-tools' Downgrade), and a run on Java 8 proves it.
 */
public final class OldJvmDeployment {
    private static final String CLASSES = "/WEB-INF/classes/";
    private static final Path WORK = Path.of("target", "old-jvm-deployments");

    private OldJvmDeployment() {}

    /** The archive as this run's JVM takes it: downgraded on Java 8 or 11, else unchanged. */
    public static WebArchive forThisServer(WebArchive archive) {
        return TestServer.javaFeature() < 17 ? of(archive) : archive;
    }

    static WebArchive of(WebArchive archive) {
        try {
            Path in = Files.createDirectories(WORK.resolve(archive.getName()).resolve("in"));
            Path out = WORK.resolve(archive.getName()).resolve("out");
            deleteTree(in);
            deleteTree(out);
            List<ArchivePath> classes = new ArrayList<>();
            for (Map.Entry<ArchivePath, Node> entry : archive.getContent().entrySet()) {
                String name = entry.getKey().get();
                if (name.startsWith(CLASSES) && name.endsWith(".class")) {
                    Path file = in.resolve(name.substring(CLASSES.length()));
                    Files.createDirectories(file.getParent());
                    try (InputStream bytes = entry.getValue().getAsset().openStream()) {
                        Files.copy(bytes, file);
                    }
                    classes.add(entry.getKey());
                }
            }
            Main.main(new String[] {
                "--logLevel",
                "ERROR",
                "--classVersion",
                "52",
                "downgrade",
                "--classpath",
                System.getProperty("java.class.path"),
                "--target",
                in.toString(),
                out.toString()
            });
            classes.forEach(archive::delete);
            try (Stream<Path> files = Files.walk(out)) {
                for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                    archive.add(new ByteArrayAsset(Files.readAllBytes(file)), CLASSES + out.relativize(file));
                }
            }
            return archive.addAsLibrary(api().toFile(), "jvmdg-api.jar");
        } catch (IOException e) {
            throw new UncheckedIOException("could not downgrade " + archive.getName(), e);
        } catch (Exception e) {
            throw new IllegalStateException("could not downgrade " + archive.getName(), e);
        }
    }

    /** The downgrader's API stubs, downgraded to Java 8 once per build. */
    private static synchronized Path api() throws Exception {
        Path api = WORK.resolve("jvmdg-api-java8.jar");
        if (!Files.isRegularFile(api)) {
            Files.createDirectories(WORK);
            Main.main(
                    new String[] {"--logLevel", "ERROR", "--classVersion", "52", "debug", "downgradeApi", api.toString()
                    });
        }
        return api;
    }

    private static void deleteTree(Path directory) throws IOException {
        if (Files.exists(directory)) {
            try (Stream<Path> files = Files.walk(directory)) {
                for (Path file : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.delete(file);
                }
            }
        }
    }
}
