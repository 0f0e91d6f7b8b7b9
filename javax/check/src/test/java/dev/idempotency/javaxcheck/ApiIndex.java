package dev.idempotency.javaxcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The classes a jar links against, read from class files only: the given jars (the jar itself, the APIs the server
 * provides) and a JDK's class library (the running JDK's modules, or an old runtime's), never the test's class path. A member is found as the JVM resolves it: in
 * the class, then up its superclasses and interfaces.
 *
 * <p>Not thread-safe (it reads the JDK's classes as they are asked for).
 */
final class ApiIndex {
    /** One class as the linker sees it: its supertypes and its members, each as {@code name + descriptor}. */
    record ClassShape(String superName, List<String> interfaces, Set<String> methods, Set<String> fields) {}

    private final Map<String, ClassShape> classes = new HashMap<>();
    private final Map<String, Optional<ClassShape>> jdk = new HashMap<>();
    private final Function<String, Optional<InputStream>> jdkClassFiles;

    /** The jars, linked against the running JDK. */
    ApiIndex(List<Path> jars) {
        this(jars, ApiIndex::runningJdkClassFile);
    }

    /** The jars, linked against that Java's class library. */
    ApiIndex(List<Path> jars, JdkLibrary library) {
        this(jars, library::classFile);
    }

    private ApiIndex(List<Path> jars, Function<String, Optional<InputStream>> jdkClassFiles) {
        this.jdkClassFiles = jdkClassFiles;
        for (Path jar : jars) {
            ReleasedJars.entries(jar).forEach((name, bytes) -> {
                if (name.endsWith(".class") && !name.startsWith("META-INF/") && !name.endsWith("module-info.class")) {
                    ClassReader reader = new ClassReader(bytes);
                    classes.putIfAbsent(reader.getClassName(), shapeOf(reader));
                }
            });
        }
    }

    /** The class named {@code internalName}, if a jar of the index or the JDK has it. */
    Optional<ClassShape> find(String internalName) {
        ClassShape shape = classes.get(internalName);
        return shape != null ? Optional.of(shape) : jdk.computeIfAbsent(internalName, this::readFromJdk);
    }

    boolean hasMethod(String owner, String name, String descriptor) {
        if (isSignaturePolymorphic(owner)) {
            // MethodHandle.invoke and VarHandle.get are linked by name, with the call site's own descriptor.
            return supertypes(owner).stream()
                    .anyMatch(shape -> shape.methods().stream().anyMatch(method -> method.startsWith(name + "(")));
        }
        return supertypes(owner).stream().anyMatch(shape -> shape.methods().contains(name + descriptor));
    }

    boolean hasField(String owner, String name, String descriptor) {
        return supertypes(owner).stream().anyMatch(shape -> shape.fields().contains(name + descriptor));
    }

    private static boolean isSignaturePolymorphic(String owner) {
        return owner.equals("java/lang/invoke/MethodHandle") || owner.equals("java/lang/invoke/VarHandle");
    }

    /** The class and all its supertypes that the index has. */
    private List<ClassShape> supertypes(String owner) {
        List<ClassShape> found = new ArrayList<>();
        Deque<String> pending = new ArrayDeque<>(List.of(owner));
        Set<String> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            String name = pending.pop();
            if (seen.add(name)) {
                find(name).ifPresent(shape -> {
                    found.add(shape);
                    if (shape.superName() != null) {
                        pending.add(shape.superName());
                    }
                    pending.addAll(shape.interfaces());
                });
            }
        }
        return found;
    }

    private Optional<ClassShape> readFromJdk(String internalName) {
        Optional<InputStream> classFile = jdkClassFiles.apply(internalName);
        if (classFile.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = classFile.get()) {
            return Optional.of(shapeOf(new ClassReader(in)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<InputStream> runningJdkClassFile(String internalName) {
        return Optional.ofNullable(ClassLoader.getPlatformClassLoader().getResourceAsStream(internalName + ".class"));
    }

    private static ClassShape shapeOf(ClassReader reader) {
        Set<String> methods = new HashSet<>();
        Set<String> fields = new HashSet<>();
        reader.accept(
                new ClassVisitor(Opcodes.ASM9) {
                    @Override
                    public MethodVisitor visitMethod(
                            int access, String name, String descriptor, String signature, String[] exceptions) {
                        methods.add(name + descriptor);
                        return null;
                    }

                    @Override
                    public FieldVisitor visitField(
                            int access, String name, String descriptor, String signature, Object value) {
                        fields.add(name + descriptor);
                        return null;
                    }
                },
                ClassReader.SKIP_CODE);
        return new ClassShape(reader.getSuperName(), List.of(reader.getInterfaces()), methods, fields);
    }
}
