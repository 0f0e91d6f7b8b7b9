package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.consumer.ProcessedMessages;
import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.store.RequestResult;
import dev.idempotency.store.RequestResultId;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The public API is what {@code package-info} of {@code dev.idempotency} lists; everything else may change in any
 * release. This holds the line the way a module's exports would: no API type lets a non-API type of this library
 * out through a public or protected signature, so an application that uses only the API never depends on one.
 */
class ApiBoundaryTest {
    /** The API, as {@code dev.idempotency/package-info.java} lists it. */
    private static final Set<Class<?>> API = Set.of(
            IdempotencyFilter.class,
            IdempotencyInitializer.class,
            IdempotencyAdminServlet.class,
            IdempotencyRecords.class,
            IdempotentExecution.class,
            DerivedKeyClientFilter.class,
            IdempotencyOpenApiFilter.class,
            IdempotencyException.class,
            ConfigurationException.class,
            StoreException.class,
            RequestInProgressException.class,
            PayloadMismatchException.class,
            ProcessedMessages.class,
            RolloutMode.class,
            RequestResult.class,
            RequestResultId.class);

    @Test
    void noApiTypeExposesATypeOfTheLibraryOutsideTheApi() {
        List<String> leaks = new ArrayList<>();
        for (Class<?> api : API) {
            for (Method method : api.getDeclaredMethods()) {
                if (exposed(method.getModifiers()) && !method.isSynthetic()) {
                    check(api, method.getName(), method.getGenericReturnType(), leaks);
                    for (Type parameter : method.getGenericParameterTypes()) {
                        check(api, method.getName(), parameter, leaks);
                    }
                }
            }
            for (Constructor<?> constructor : api.getDeclaredConstructors()) {
                if (exposed(constructor.getModifiers())) {
                    for (Type parameter : constructor.getGenericParameterTypes()) {
                        check(api, "<init>", parameter, leaks);
                    }
                }
            }
            for (Field field : api.getDeclaredFields()) {
                if (exposed(field.getModifiers())) {
                    check(api, field.getName(), field.getGenericType(), leaks);
                }
            }
        }
        assertEquals(List.of(), leaks);
    }

    private static boolean exposed(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static void check(Class<?> api, String member, Type type, List<String> leaks) {
        if (type instanceof ParameterizedType parameterized) {
            check(api, member, parameterized.getRawType(), leaks);
            for (Type argument : parameterized.getActualTypeArguments()) {
                check(api, member, argument, leaks);
            }
        } else if (type instanceof Class<?> used) {
            Class<?> element = used.isArray() ? used.getComponentType() : used;
            if (element.getName().startsWith("dev.idempotency.") && !API.contains(element)) {
                leaks.add(api.getSimpleName() + "." + member + " exposes " + element.getName());
            }
        }
    }
}
