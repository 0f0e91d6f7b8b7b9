package dev.idempotency.sample.support;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.transformer.Transformer.ResultCode;
import org.eclipse.transformer.cli.TransformerCLI;
import org.jboss.shrinkwrap.api.ArchivePath;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.exporter.ZipExporter;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/**
 * A test deployment in its Jakarta EE 8 ({@code javax.*}) form, for the servers of that level (the build's wildfly26
 * and liberty-ee8 runs): the same archive the jakarta servers get, renamed by the Eclipse Transformer with the rules the javax jars
 * are built with ({@code javax/transformer}), so that the javax tests have no sources of their own. The jakarta
 * filter jar is replaced by the javax one the build made, and the descriptors are downgraded to their EE 8 schema
 * versions (web.xml 4.0, persistence.xml 2.2, beans.xml 2.0), which the package renames alone do not do.
 */
public final class JavaxDeployment {
    private static final String JAKARTA_FILTER_JAR = "/WEB-INF/lib/idempotency-filter";

    private JavaxDeployment() {}

    /**
     * The archive as this run's server takes it: its javax form on a Jakarta EE 8 server, else unchanged; and its
     * classes downgraded where the server runs on Java 8 or 11 ({@link OldJvmDeployment}).
     */
    public static WebArchive forThisServer(WebArchive jakarta) {
        return OldJvmDeployment.forThisServer(TestServer.isJakartaEe8() ? of(jakarta) : jakarta);
    }

    static WebArchive of(WebArchive jakarta) {
        try {
            Path directory = Files.createDirectories(Path.of("target", "javax-deployments"));
            Path input = directory.resolve("jakarta-" + jakarta.getName());
            Path output = directory.resolve(jakarta.getName());
            Files.deleteIfExists(output);
            boolean adopted = removeJakartaFilterJar(jakarta);
            jakarta.as(ZipExporter.class).exportTo(input.toFile(), true);
            transform(input, output);
            WebArchive javax = ShrinkWrap.create(ZipImporter.class, jakarta.getName())
                    .importFrom(output.toFile())
                    .as(WebArchive.class);
            return adopted
                    ? javax.addAsLibrary(
                            new File(System.getProperty("filter.javax.jar")), "idempotency-filter-javax.jar")
                    : javax;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("could not make the javax form of " + jakarta.getName(), e);
        }
    }

    /**
     * Takes the jakarta filter jar out, which the transformer must not rename (the build made the javax one), and
     * says whether the archive had one: a foreign application before its adoption has none.
     */
    private static boolean removeJakartaFilterJar(WebArchive archive) {
        List<ArchivePath> jars = archive.getContent().keySet().stream()
                .filter(path -> path.get().startsWith(JAKARTA_FILTER_JAR))
                .toList();
        jars.forEach(archive::delete);
        return !jars.isEmpty();
    }

    /**
     * The transformer's plain CLI in this JVM, as javax/pom.xml runs it: only the given renames, so that none of its
     * built-in javax to jakarta rules run. Its output is kept for the failure message.
     */
    private static void transform(Path input, Path output) {
        Path rules = Path.of(System.getProperty("transformer.rules"));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream stream = new PrintStream(log, true, StandardCharsets.UTF_8);
        ResultCode result = TransformerCLI.runWith(new TransformerCLI(
                stream,
                stream,
                input.toString(),
                output.toString(),
                "-tr",
                rules.resolve("jar/jakarta-to-javax.properties").toString(),
                "-tf",
                rules.resolve("test-war/war-text-master.properties").toString(),
                "-q"));
        if (result != ResultCode.SUCCESS_RC) {
            throw new IllegalStateException("the Eclipse Transformer did not rename " + input + " (" + result + "): "
                    + log.toString(StandardCharsets.UTF_8));
        }
    }
}
