package dev.idempotency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.rollout.RolloutMode;
import dev.idempotency.store.RequestResultStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public API is what the packages' own {@code package-info} say it is, in their first words (Failsafe's way of
 * naming {@code internal} and {@code spi}): {@code Public API.} for a package whose every public type is API,
 * {@code Public API in part:} followed by the API types as {@code {@link ...}} up to {@code Internal:}, and {@code
 * Internal:} for a package with none. This test reads those words, so the package-infos are the one statement of
 * the API; everything else may change in any release. It holds the line the way a module's exports would: no API
 * type lets a non-API type of this library out through a public or protected signature, so an application that
 * uses only the API never depends on one.
 */
class ApiBoundaryTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String ROOT = "dev.idempotency";
    private static final String PUBLIC = "Public API.";
    private static final String IN_PART = "Public API in part:";
    private static final String INTERNAL = "Internal:";
    private static final Pattern LINK = Pattern.compile("\\{@link (dev\\.idempotency[\\w.]*)}");

    /** Each package's statement: its Javadoc, as one line of text, by package name. */
    private static final Map<String, String> STATEMENTS = statements();

    /** The API, as the package-infos state it. */
    private static final Set<Class<?>> API = api();

    @Test
    void everyPackageSaysWhetherItIsPublicApiInItsFirstWords() throws IOException {
        List<String> unstated = new ArrayList<>();
        try (Stream<Path> files = Files.walk(SOURCES.resolve(ROOT.replace('.', '/')))) {
            files.filter(file -> file.toString().endsWith(".java"))
                    .map(file -> packageOf(file.getParent()))
                    .distinct()
                    .filter(pkg -> !STATEMENTS.containsKey(pkg))
                    .forEach(unstated::add);
        }
        STATEMENTS.forEach((pkg, text) -> {
            if (!text.startsWith(PUBLIC) && !text.startsWith(IN_PART) && !text.startsWith(INTERNAL)) {
                unstated.add(pkg + " begins '" + text.substring(0, Math.min(40, text.length())) + "'");
            }
        });
        assertEquals(
                List.of(),
                unstated,
                "packages whose package-info does not open with '" + PUBLIC + "', '" + IN_PART + "' or '" + INTERNAL
                        + "'");
    }

    @Test
    void theRootPackageLinksEveryOtherPackageThatHoldsApi() {
        Set<String> holdingApi = new TreeSet<>();
        STATEMENTS.forEach((pkg, text) -> {
            if (!pkg.equals(ROOT) && !text.startsWith(INTERNAL)) {
                holdingApi.add(pkg);
            }
        });
        Set<String> linked = new TreeSet<>(links(STATEMENTS.get(ROOT)));
        linked.removeIf(target -> !STATEMENTS.containsKey(target) || target.equals(ROOT));

        assertEquals(holdingApi, linked, "packages the root package-info names as holding public types");
    }

    @Test
    void theApiIsWhatTheBuildShipsAsIt() {
        // A floor, so that a package-info reworded out of the convention cannot empty the API unnoticed.
        assertTrue(API.contains(IdempotencyFilter.class) && API.contains(RolloutMode.class), API.toString());
        assertFalse(API.contains(RequestResultStore.class), API.toString());
    }

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

    private static Map<String, String> statements() {
        Map<String, String> statements = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES.resolve(ROOT.replace('.', '/')))) {
            for (Path file : files.filter(f -> f.endsWith("package-info.java")).toList()) {
                String source = Files.readString(file);
                String javadoc = source.substring(source.indexOf("/**") + 3, source.indexOf("*/"));
                String text = javadoc.replaceAll("(?m)^\\s*\\*", " ")
                        .replaceAll("\\s+", " ")
                        .trim();
                statements.put(packageOf(file.getParent()), text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return statements;
    }

    private static Set<Class<?>> api() {
        Set<Class<?>> api = new HashSet<>();
        STATEMENTS.forEach((pkg, text) -> {
            if (text.startsWith(PUBLIC)) {
                api.addAll(publicTypesOf(pkg));
            } else if (text.startsWith(IN_PART)) {
                int internal = text.indexOf(INTERNAL);
                for (String name : links(text.substring(0, internal < 0 ? text.length() : internal))) {
                    api.add(load(name));
                }
            }
        });
        return Set.copyOf(api);
    }

    private static List<String> links(String text) {
        List<String> targets = new ArrayList<>();
        Matcher link = LINK.matcher(text);
        while (link.find()) {
            targets.add(link.group(1));
        }
        return targets;
    }

    /** The public top-level types whose sources are in this package's directory. */
    private static List<Class<?>> publicTypesOf(String pkg) {
        try (Stream<Path> files = Files.list(SOURCES.resolve(pkg.replace('.', '/')))) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".java") && !name.equals("package-info.java"))
                    .map(name -> load(pkg + "." + name.substring(0, name.length() - ".java".length())))
                    .filter(type -> Modifier.isPublic(type.getModifiers()))
                    .<Class<?>>map(type -> type)
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, ApiBoundaryTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("a package-info names " + name + ", which is no class", e);
        }
    }

    private static String packageOf(Path directory) {
        return SOURCES.relativize(directory).toString().replace(java.io.File.separatorChar, '.');
    }
}
