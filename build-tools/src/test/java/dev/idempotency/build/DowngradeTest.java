package dev.idempotency.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DowngradeTest {
    @TempDir
    Path dir;

    @Test
    void aRecordBecomesAJava8ClassThatStillComparesByItsComponents() throws Exception {
        Path jar = jarOf(Map.of("demo/Point.java", "package demo; public record Point(int x, String label) {}"));

        assertEquals(List.of(), Downgrade.downgrade(jar, 52));

        byte[] point = entry(jar, "demo/Point.class");
        assertEquals(52, ((point[6] & 0xff) << 8) | (point[7] & 0xff));
        assertFalse(new String(point, StandardCharsets.ISO_8859_1).contains("xyz/wagyourtail"));
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            Class<?> type = loader.loadClass("demo.Point");
            assertEquals(Object.class, type.getSuperclass());
            var constructor = type.getDeclaredConstructor(int.class, String.class);
            Object a = constructor.newInstance(1, "a");
            assertEquals(a, constructor.newInstance(1, "a"));
            assertEquals(a.hashCode(), constructor.newInstance(1, "a").hashCode());
            assertNotEquals(a, constructor.newInstance(2, "a"));
            assertEquals("Point[x=1, label=a]", a.toString());
        }
    }

    @Test
    void aJdkCallNewerThanTheTargetFailsTheBuildNamingItAndLeavesTheJarAsItWas() throws Exception {
        Path jar = jarOf(
                Map.of(
                        "demo/Names.java",
                        "package demo; public class Names { public static Object all() { return java.util.List.of(\"a\"); } }"));
        byte[] before = Files.readAllBytes(jar);

        List<String> problems = Downgrade.downgrade(jar, 52);

        assertEquals(1, problems.size(), problems::toString);
        assertTrue(
                problems.get(0).startsWith("demo/Names.class calls a JDK API newer than the target"),
                problems::toString);
        assertTrue(problems.get(0).contains("J_U_List"), problems::toString);
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(jar)), "the jar was changed");
    }

    @Test
    void theSameCallIsFineForJava11() throws Exception {
        Path jar = jarOf(
                Map.of(
                        "demo/Names.java",
                        "package demo; public class Names { public static Object all() { return java.util.List.of(\"a\"); } }"));

        assertEquals(List.of(), Downgrade.downgrade(jar, 55));
    }

    private Path jarOf(Map<String, String> sources) throws Exception {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> arguments = new java.util.ArrayList<>(List.of("--release", "17", "-d", classes.toString()));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        assertEquals(0, javac.run(null, null, errors, arguments.toArray(new String[0])), errors::toString);
        Path jar = dir.resolve("in.jar");
        try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(jar));
                var files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                out.putNextEntry(new ZipEntry(classes.relativize(file).toString()));
                out.write(Files.readAllBytes(file));
                out.closeEntry();
            }
        }
        return jar;
    }

    private static byte[] entry(Path jar, String name) throws Exception {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.getInputStream(zip.getEntry(name)).readAllBytes();
        }
    }
}
