package dev.idempotency.javaxcheck;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.Handle;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Every type, method and field that a jar's classes name and that the linker would not find in an {@link ApiIndex}:
 * what a server with only those APIs would answer with {@code NoClassDefFoundError}, {@code NoSuchMethodError} or
 * {@code NoSuchFieldError}, once the code ran. Types under {@code optionalPrefixes} are left out: code that the jar
 * loads only after finding them by name.
 *
 * <p>Not thread-safe.
 */
final class UnresolvedReferences {
    private final ApiIndex index;
    private final List<String> optionalPrefixes;
    private final Set<String> unresolved = new TreeSet<>();

    UnresolvedReferences(ApiIndex index, List<String> optionalPrefixes) {
        this.index = index;
        this.optionalPrefixes = optionalPrefixes;
    }

    /** What the classes of {@code jarEntries} name that the index lacks, one line each. */
    Set<String> in(Map<String, byte[]> jarEntries) {
        jarEntries.forEach((name, bytes) -> {
            if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                new ClassReader(bytes).accept(new Collector(), 0);
            }
        });
        return unresolved;
    }

    private boolean optional(String internalName) {
        return optionalPrefixes.stream().anyMatch(internalName::startsWith);
    }

    private final class Collector extends ClassVisitor {
        private String className;

        Collector() {
            super(Opcodes.ASM9);
        }

        @Override
        public void visit(
                int version, int access, String name, String signature, String superName, String[] interfaces) {
            className = name;
            if (superName != null) {
                type(superName);
            }
            for (String implemented : interfaces) {
                type(implemented);
            }
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            descriptor(descriptor);
            return null;
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            descriptor(descriptor);
            return new FieldVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    descriptor(annotation);
                    return null;
                }
            };
        }

        @Override
        public MethodVisitor visitMethod(
                int access, String name, String descriptor, String signature, String[] exceptions) {
            descriptor(descriptor);
            String where = className + "." + name;
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    descriptor(annotation);
                    return null;
                }

                @Override
                public AnnotationVisitor visitParameterAnnotation(int parameter, String annotation, boolean visible) {
                    descriptor(annotation);
                    return null;
                }

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    type(type);
                }

                @Override
                public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
                    descriptor(fieldDescriptor);
                    if (reachable(owner) && !index.hasField(owner, field, fieldDescriptor)) {
                        unresolved.add(where + " reads field " + owner + "." + field + " " + fieldDescriptor);
                    }
                }

                @Override
                public void visitMethodInsn(
                        int opcode, String owner, String method, String methodDescriptor, boolean isInterface) {
                    method(where, owner, method, methodDescriptor);
                }

                @Override
                public void visitInvokeDynamicInsn(
                        String method, String methodDescriptor, Handle bootstrap, Object... arguments) {
                    descriptor(methodDescriptor);
                    handle(where, bootstrap);
                    for (Object argument : arguments) {
                        constant(where, argument);
                    }
                }

                @Override
                public void visitLdcInsn(Object value) {
                    constant(where, value);
                }

                @Override
                public void visitMultiANewArrayInsn(String arrayDescriptor, int dimensions) {
                    descriptor(arrayDescriptor);
                }

                @Override
                public void visitTryCatchBlock(
                        org.objectweb.asm.Label start,
                        org.objectweb.asm.Label end,
                        org.objectweb.asm.Label handler,
                        String type) {
                    if (type != null) {
                        type(type);
                    }
                }
            };
        }

        private void constant(String where, Object value) {
            if (value instanceof Type type) {
                descriptor(type.getDescriptor());
            } else if (value instanceof Handle handle) {
                handle(where, handle);
            }
        }

        private void handle(String where, Handle handle) {
            if (handle.getTag() <= Opcodes.H_PUTSTATIC) {
                descriptor(handle.getDesc());
                if (reachable(handle.getOwner())
                        && !index.hasField(handle.getOwner(), handle.getName(), handle.getDesc())) {
                    unresolved.add(where + " reads field " + handle.getOwner() + "." + handle.getName());
                }
            } else {
                method(where, handle.getOwner(), handle.getName(), handle.getDesc());
            }
        }

        private void method(String where, String owner, String method, String methodDescriptor) {
            descriptor(methodDescriptor);
            if (reachable(owner) && !index.hasMethod(owner, method, methodDescriptor)) {
                unresolved.add(where + " calls " + owner + "." + method + methodDescriptor);
            }
        }

        /** Whether a member of {@code owner} can be looked up: an array's members are the JVM's own. */
        private boolean reachable(String owner) {
            if (owner.startsWith("[")) {
                descriptor(owner);
                return false;
            }
            return type(owner);
        }

        private void descriptor(String descriptor) {
            Type type = Type.getType(descriptor);
            if (type.getSort() == Type.METHOD) {
                descriptor(type.getReturnType().getDescriptor());
                for (Type argument : type.getArgumentTypes()) {
                    descriptor(argument.getDescriptor());
                }
            } else if (type.getSort() == Type.ARRAY) {
                descriptor(type.getElementType().getDescriptor());
            } else if (type.getSort() == Type.OBJECT) {
                type(type.getInternalName());
            }
        }

        /** Records {@code internalName} if it is missing; whether its members can be checked. */
        private boolean type(String internalName) {
            if (internalName.startsWith("[")) {
                descriptor(internalName);
                return false;
            }
            if (optional(internalName)) {
                return false;
            }
            if (index.find(internalName).isEmpty()) {
                unresolved.add(className + " names missing type " + internalName);
                return false;
            }
            return true;
        }
    }
}
