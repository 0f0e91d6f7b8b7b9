package dev.idempotency.testing;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Test doubles for servlet interfaces without a mocking library: a {@link Proxy} that answers only the
 * methods it is given and fails the test on any other call. Every unexpected call is also remembered, so a
 * test can check afterwards that none happened even if the code under test swallowed the error.
 */
public final class StrictProxy {
    /** The answer to one call; {@code args} is never null. */
    @FunctionalInterface
    public interface Answer {
        Object answer(Object[] args) throws Throwable;
    }

    private final List<String> unexpectedCalls = Collections.synchronizedList(new ArrayList<>());

    /** A proxy that answers the methods named in {@code answers} (by name) and fails on every other. */
    public <T> T of(Class<T> type, Map<String, Answer> answers) {
        Object proxy = Proxy.newProxyInstance(
                StrictProxy.class.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
                    Object[] arguments = args == null ? new Object[0] : args;
                    if (method.getDeclaringClass() == Object.class) {
                        return objectMethod(self, method, arguments, type);
                    }
                    Answer answer = answers.get(method.getName());
                    if (answer == null) {
                        String call = method.getName() + describe(arguments);
                        unexpectedCalls.add(call);
                        throw new AssertionError(
                                "unexpected call on the " + type.getSimpleName() + " test double: " + call);
                    }
                    return answer.answer(arguments);
                });
        return type.cast(proxy);
    }

    /** Every call that had no answer, in order. */
    public List<String> unexpectedCalls() {
        return List.copyOf(unexpectedCalls);
    }

    private static Object objectMethod(Object self, Method method, Object[] args, Class<?> type) {
        return switch (method.getName()) {
            case "equals" -> self == args[0];
            case "hashCode" -> System.identityHashCode(self);
            case "toString" -> "strict " + type.getSimpleName() + " test double";
            default -> throw new AssertionError("unexpected Object method " + method);
        };
    }

    private static String describe(Object[] args) {
        List<String> parts = new ArrayList<>();
        for (Object arg : args) {
            parts.add(String.valueOf(arg));
        }
        return "(" + String.join(", ", parts) + ")";
    }
}
