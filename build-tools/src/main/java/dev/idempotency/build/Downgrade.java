package dev.idempotency.build;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.SimpleRemapper;
import xyz.wagyourtail.jvmdg.cli.Main;

/**
 * Turns a jar's Java 17 class files into those of an older Java, in place: {@code Downgrade <jar> <major>}, with
 * 55 for Java 11 and 52 for Java 8. The sources stay modern and there is one tree of them.
 *
 * <p>JvmDowngrader rewrites what the language added since the target: records, switch expressions, sealed types,
 * nestmates, string concatenation. It leaves two things of its own, which this class takes out: a record extends its
 * stand-in for {@code java.lang.Record} (an empty abstract class; the equals, hashCode and toString it writes into
 * each record need nothing of it), so the record extends {@code Object} instead; and the class attributes an old JVM
 * does not read (record components, permitted subclasses, nest members) are kept as annotations of its own, which are
 * dropped. Any other reference to it is a call to a JDK API newer than the target, for which it would copy its own
 * implementation (a "stub", LGPL-2.1) into the jar: the build fails, naming the class and the stub (J_U_List is
 * {@code java.util.List}), and the call is to be written with what the target Java has. So the jar holds only our
 * classes and those we shade on purpose.
 *
 * <p>Every class file is then checked to be at most the target's version. Whether each JDK type, method and field
 * the jar names exists in the target Java's class library is checked against the real runtimes by the tests in
 * {@code javax/check}.
 */
public final class Downgrade {
    private static final String DOWNGRADER = "xyz/wagyourtail/jvmdg/";
    private static final String RECORD_STAND_IN = DOWNGRADER + "j16/stub/java_base/J_L_Record";
    private static final Pattern DOWNGRADER_NAME = Pattern.compile(Pattern.quote(DOWNGRADER) + "[A-Za-z0-9_/$]+");

    private Downgrade() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("usage: Downgrade <jar> <class file major version: 52 or 55>");
        }
        List<String> problems = downgrade(Path.of(args[0]), Integer.parseInt(args[1]));
        if (!problems.isEmpty()) {
            System.err.println("Downgrade of " + args[0] + " to class file version " + args[1] + " failed:");
            problems.forEach(problem -> System.err.println("  " + problem));
            System.exit(1);
        }
    }

    /** Downgrades the jar in place when it can; otherwise leaves it as it was and says why, one line a class. */
    static List<String> downgrade(Path jar, int major) throws Exception {
        // Beside the jar, made as any file is, so that the jar that replaces it is readable as the build's others.
        Path downgraded = jar.resolveSibling("downgraded-" + jar.getFileName());
        Path cleaned = jar.resolveSibling("cleaned-" + jar.getFileName());
        try {
            Files.deleteIfExists(downgraded);
            Main.main(new String[] {
                "--logLevel",
                "ERROR",
                "--classVersion",
                Integer.toString(major),
                "downgrade",
                "--classpath",
                System.getProperty("java.class.path"),
                "--target",
                jar.toString(),
                downgraded.toString()
            });
            List<String> problems = cleanUp(downgraded, cleaned, major);
            if (problems.isEmpty()) {
                Files.move(cleaned, jar, StandardCopyOption.REPLACE_EXISTING);
            }
            return problems;
        } finally {
            Files.deleteIfExists(downgraded);
            Files.deleteIfExists(cleaned);
        }
    }

    private static List<String> cleanUp(Path from, Path to, int major) throws IOException {
        List<String> problems = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(from));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(to))) {
            for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                byte[] bytes = in.readAllBytes();
                if (entry.getName().endsWith(".class")) {
                    bytes = withoutDowngrader(bytes);
                    problems.addAll(check(entry.getName(), bytes, major));
                }
                copy(entry, bytes, out);
            }
        }
        return problems;
    }

    private static byte[] withoutDowngrader(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        // No frames are recomputed: a record's frames name the stand-in only where they now name Object.
        ClassWriter writer = new ClassWriter(0);
        reader.accept(
                new AnnotationsDropped(
                        new ClassRemapper(writer, new SimpleRemapper(RECORD_STAND_IN, "java/lang/Object"))),
                0);
        return writer.toByteArray();
    }

    private static List<String> check(String name, byte[] classFile, int major) {
        List<String> problems = new ArrayList<>();
        int version = ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
        if (version > major) {
            problems.add(name + " is class file version " + version + ", newer than " + major);
        }
        Set<String> stubs = new TreeSet<>();
        Matcher matcher = DOWNGRADER_NAME.matcher(new String(classFile, StandardCharsets.ISO_8859_1));
        while (matcher.find()) {
            stubs.add(matcher.group().substring(DOWNGRADER.length()));
        }
        if (!stubs.isEmpty()) {
            problems.add(name + " calls a JDK API newer than the target, which would need the downgrader's " + stubs
                    + ": write it with what the target Java has");
        }
        return problems;
    }

    private static void copy(ZipEntry entry, byte[] bytes, ZipOutputStream out) throws IOException {
        ZipEntry copy = new ZipEntry(entry.getName());
        copy.setTime(entry.getTime());
        out.putNextEntry(copy);
        out.write(bytes);
        out.closeEntry();
    }

    /** Drops the downgrader's annotations, which stand for class attributes the target JVM would not read anyway. */
    private static final class AnnotationsDropped extends ClassVisitor {
        AnnotationsDropped(ClassVisitor next) {
            super(Opcodes.ASM9, next);
        }

        private static boolean ofDowngrader(String descriptor) {
            return descriptor.startsWith("L" + DOWNGRADER);
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return ofDowngrader(descriptor) ? null : super.visitAnnotation(descriptor, visible);
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return ofDowngrader(annotation) ? null : super.visitAnnotation(annotation, visible);
                }
            };
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            return new FieldVisitor(Opcodes.ASM9, super.visitField(access, name, descriptor, signature, value)) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    return ofDowngrader(annotation) ? null : super.visitAnnotation(annotation, visible);
                }
            };
        }
    }
}
