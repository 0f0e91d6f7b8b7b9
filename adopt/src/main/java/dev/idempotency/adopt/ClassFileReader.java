package dev.idempotency.adopt;

import dev.idempotency.adopt.ClassFacts.MethodFacts;
import dev.idempotency.namespace.ServletNamespace;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Reads the facts the check needs from a class file with ASM, without loading the class: a WAR's classes link
 * against the server's APIs and its own libraries, none of which the command has. EE names are read in their
 * {@code jakarta} spelling whichever namespace the class uses ({@link EeApiNames}), and the namespaces it uses are
 * kept, for the EE level the check reports.
 *
 * <p>Stateless and thread-safe.
 */
final class ClassFileReader {
    static final String PATH = "jakarta.ws.rs.Path";
    static final String APPLICATION_PATH = "jakarta.ws.rs.ApplicationPath";
    private static final String HTTP_METHOD = "jakarta.ws.rs.HttpMethod";
    private static final String WEB_SERVLET = "jakarta.servlet.annotation.WebServlet";
    private static final String SERVLET_CONTEXT = "jakarta.servlet.ServletContext";

    private ClassFileReader() {}

    /** @throws IllegalArgumentException if the bytes are not a class file ASM can read */
    static ClassFacts read(byte[] classFile, String where) {
        Collector collector = new Collector(where);
        // Method bodies are read too, for the calls that register servlets in code; debug data and frames are not.
        new ClassReader(classFile).accept(collector, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return collector.facts();
    }

    private static String dotted(String internalName) {
        return internalName == null ? null : internalName.replace('/', '.');
    }

    /** Collects one class's facts while ASM walks it. */
    private static final class Collector extends ClassVisitor {
        private final String where;
        private final List<MethodFacts> methods = new ArrayList<>();
        private final List<String> servletPatterns = new ArrayList<>();
        private final List<String> callsAddServlet = new ArrayList<>();
        private final Set<ServletNamespace> namespaces = EnumSet.noneOf(ServletNamespace.class);
        private String name;
        private String superName;
        private List<String> interfaces = List.of();
        private boolean concrete;
        private String path;
        private String applicationPath;
        private String httpMethod;

        Collector(String where) {
            super(Opcodes.ASM9);
            this.where = where;
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.name = dotted(name);
            this.superName = ee(dotted(superName));
            this.interfaces = List.of(interfaces).stream()
                    .map(implemented -> ee(dotted(implemented)))
                    .collect(Collectors.toList());
            this.concrete = (access & (Opcodes.ACC_INTERFACE | Opcodes.ACC_ABSTRACT)) == 0;
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            String type = ee(Type.getType(descriptor).getClassName());
            switch (type) {
                case PATH:
                    return new StringValue(value -> path = value);
                case APPLICATION_PATH:
                    return new StringValue(value -> applicationPath = value);
                case HTTP_METHOD:
                    return new StringValue(value -> httpMethod = value);
                case WEB_SERVLET:
                    return new WebServletPatterns(servletPatterns);
                default:
                    return null;
            }
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String methodName, String descriptor, String signature, String[] exceptions) {
            Set<String> annotations = new LinkedHashSet<>();
            String[] methodPath = {null};
            String owner = name;
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    String type = ee(Type.getType(annotation).getClassName());
                    annotations.add(type);
                    return type.equals(PATH) ? new StringValue(value -> methodPath[0] = value) : null;
                }

                @Override
                public void visitMethodInsn(
                        int opcode, String calledOwner, String calledName, String calledDescriptor, boolean itf) {
                    if (ee(dotted(calledOwner)).equals(SERVLET_CONTEXT) && calledName.equals("addServlet")) {
                        callsAddServlet.add(owner + "." + methodName);
                    }
                }

                @Override
                public void visitFieldInsn(int opcode, String fieldOwner, String fieldName, String fieldDescriptor) {
                    ee(dotted(fieldOwner));
                }

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    ee(dotted(type));
                }

                @Override
                public void visitEnd() {
                    methods.add(new MethodFacts(
                            methodName,
                            descriptor,
                            Set.copyOf(annotations),
                            methodPath[0],
                            ee(Type.getReturnType(descriptor).getClassName())));
                }
            };
        }

        ClassFacts facts() {
            return new ClassFacts(
                    name,
                    superName,
                    interfaces,
                    where,
                    concrete,
                    path,
                    applicationPath,
                    List.copyOf(servletPatterns),
                    httpMethod,
                    List.copyOf(methods),
                    List.copyOf(callsAddServlet),
                    Set.copyOf(namespaces));
        }

        /** Notes the namespace of an EE name, and gives the name in its jakarta spelling. */
        private String ee(String className) {
            EeApiNames.namespaceOf(className).ifPresent(namespaces::add);
            return EeApiNames.asJakarta(className);
        }
    }

    /** Hands on the {@code value} element of an annotation such as {@code @Path("accounts")}. */
    private static final class StringValue extends AnnotationVisitor {
        private final Consumer<String> target;

        StringValue(Consumer<String> target) {
            super(Opcodes.ASM9);
            this.target = target;
        }

        @Override
        public void visit(String element, Object value) {
            if ("value".equals(element) && value instanceof String text) {
                target.accept(text);
            }
        }
    }

    /** Collects {@code @WebServlet}'s {@code value} and {@code urlPatterns}, which are two spellings of one list. */
    private static final class WebServletPatterns extends AnnotationVisitor {
        private final List<String> patterns;

        WebServletPatterns(List<String> patterns) {
            super(Opcodes.ASM9);
            this.patterns = patterns;
        }

        @Override
        public AnnotationVisitor visitArray(String element) {
            if (!element.equals("value") && !element.equals("urlPatterns")) {
                return null;
            }
            return new AnnotationVisitor(Opcodes.ASM9) {
                @Override
                public void visit(String ignored, Object value) {
                    if (value instanceof String pattern) {
                        patterns.add(pattern);
                    }
                }
            };
        }
    }
}
