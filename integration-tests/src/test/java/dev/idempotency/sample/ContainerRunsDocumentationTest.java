package dev.idempotency.sample;

import dev.idempotency.build.GeneratedSection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.AnnotationSupport;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * docs/tested.md's table of container runs says what this module's pom runs: one row per Failsafe execution, with
 * the server distribution it unpacks, the Java and EE level the run asks of the server, its skip flag, and the
 * container test classes it selects (by its includes, excludes and groups, applied to the {@code *IT} classes in
 * {@code src/test/java}, as Failsafe applies them).
 */
class ContainerRunsDocumentationTest {
    private static final Path POM = Path.of("pom.xml");
    private static final Path SAMPLE_POM = Path.of("../sample-war/pom.xml");
    private static final Path PARENT_POM = Path.of("../pom.xml");
    private static final Path TESTS = Path.of("src/test/java");
    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");

    @Test
    void testedDocsListEveryContainerRunAsThePomDefinesIt() throws Exception {
        GeneratedSection.check(Path.of("../docs/tested.md"), "container-runs", table());
    }

    static String table() throws Exception {
        Document pom = parse(POM);
        Map<String, String> properties = properties(parse(PARENT_POM));
        properties.putAll(properties(pom));
        List<Document> unpackers = List.of(pom, parse(SAMPLE_POM));
        List<TestClass> tests = testClasses();

        StringBuilder table = new StringBuilder();
        table.append(
                "| run | server (from Maven Central) | Java | Jakarta EE | left out with | container test classes |\n");
        table.append("|---|---|---|---|---|---|\n");
        for (Element execution : failsafeExecutions(pom)) {
            String id = text(execution, "id");
            Element configuration = child(execution, "configuration");
            Map<String, String> system = new HashMap<>();
            Element variables = child(configuration, "systemPropertyVariables");
            if (variables != null) {
                for (Element variable : children(variables)) {
                    system.put(variable.getTagName(), variable.getTextContent().trim());
                }
            }
            List<String> includes = values(configuration, "includes");
            List<String> excludes = values(configuration, "excludes");
            String groups = text(configuration, "groups");
            List<String> selected = tests.stream()
                    .filter(test -> test.selectedBy(includes, excludes, groups))
                    .map(TestClass::name)
                    .collect(Collectors.toList());
            List<String> notSelected = tests.stream()
                    .map(TestClass::name)
                    .filter(name -> !selected.contains(name))
                    .collect(Collectors.toList());
            String classes = includes.isEmpty() && groups == null
                    ? "every `*IT` (" + selected.size() + ") but " + code(notSelected)
                    : selected.size() + ": " + code(selected);
            table.append("| `")
                    .append(id)
                    .append("` | ")
                    .append(server(unpackers, id, properties))
                    .append(" | ")
                    .append(system.getOrDefault("test.server.java", "the build's"))
                    .append(" | ")
                    .append(system.getOrDefault("test.jakarta.ee", "10"))
                    .append(" | ")
                    .append(skipFlag(text(configuration, "skip")))
                    .append(" | ")
                    .append(classes)
                    .append(" |\n");
        }
        return table.toString();
    }

    /** The artifact the run's server is unpacked from: {@code unpack-<run>}, or {@code unpack-<server>} it shares. */
    private static String server(List<Document> poms, String run, Map<String, String> properties) {
        List<String> ids = List.of("unpack-" + run, "unpack-" + run.split("-")[0]);
        for (String id : ids) {
            for (Document pom : poms) {
                for (Element execution : elements(pom.getDocumentElement(), "execution")) {
                    if (id.equals(text(execution, "id"))) {
                        Element item = elements(execution, "artifactItem").get(0);
                        return "`" + text(item, "artifactId") + "` " + resolve(text(item, "version"), properties);
                    }
                }
            }
        }
        throw new AssertionError("no unpack execution for the run " + run + " (tried " + ids + ")");
    }

    private static String skipFlag(String skip) {
        Matcher property = PROPERTY.matcher(skip == null ? "" : skip);
        return property.matches() ? "`-D" + property.group(1) + "=true`" : "";
    }

    private static String code(List<String> names) {
        return names.stream().map(name -> "`" + name + "`").collect(Collectors.joining(", "));
    }

    private static String resolve(String value, Map<String, String> properties) {
        Matcher property = PROPERTY.matcher(value);
        StringBuilder resolved = new StringBuilder();
        while (property.find()) {
            property.appendReplacement(
                    resolved, Matcher.quoteReplacement(properties.getOrDefault(property.group(1), property.group())));
        }
        return property.appendTail(resolved).toString();
    }

    /** A container test class as Failsafe sees it: its file under src/test/java and its annotations' text. */
    record TestClass(String path, String source) {
        String name() {
            return path.substring(path.lastIndexOf('/') + 1, path.length() - ".java".length());
        }

        boolean selectedBy(List<String> includes, List<String> excludes, String groups) {
            boolean included = includes.isEmpty() || includes.stream().anyMatch(this::matches);
            boolean excluded = excludes.stream().anyMatch(this::matches);
            return included && !excluded && (groups == null || tagged(groups));
        }

        private boolean matches(String pattern) {
            StringBuilder regex = new StringBuilder();
            for (int i = 0; i < pattern.length(); i++) {
                if (pattern.startsWith("**/", i)) {
                    regex.append("(?:.*/)?");
                    i += 2;
                } else if (pattern.charAt(i) == '*') {
                    regex.append("[^/]*");
                } else {
                    regex.append(Pattern.quote(String.valueOf(pattern.charAt(i))));
                }
            }
            return path.matches(regex.toString());
        }

        /** Whether the class carries one of the groups' tags, as JUnit reads them (inherited and meta ones too). */
        private boolean tagged(String groups) {
            Class<?> type;
            try {
                type = Class.forName(
                        path.substring(0, path.length() - ".java".length()).replace('/', '.'),
                        false,
                        ContainerRunsDocumentationTest.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new AssertionError("no compiled class for " + path, e);
            }
            List<String> tags = AnnotationSupport.findRepeatableAnnotations(type, Tag.class).stream()
                    .map(Tag::value)
                    .collect(Collectors.toList());
            return Arrays.stream(groups.split("[,|]")).map(String::trim).anyMatch(tags::contains);
        }
    }

    /** Failsafe's default includes ({@code **}{@code /*IT.java} and kin), minus abstract classes JUnit never runs. */
    static List<TestClass> testClasses() throws IOException {
        List<TestClass> tests = new ArrayList<>();
        try (Stream<Path> files = Files.walk(TESTS)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String name = file.getFileName().toString();
                if (name.endsWith("IT.java") || name.endsWith("ITCase.java") || name.startsWith("IT")) {
                    String source = Files.readString(file);
                    if (!source.contains("abstract class " + name.replace(".java", ""))) {
                        tests.add(
                                new TestClass(TESTS.relativize(file).toString().replace('\\', '/'), source));
                    }
                }
            }
        }
        tests.sort((a, b) -> a.name().compareTo(b.name()));
        return tests;
    }

    private static List<Element> failsafeExecutions(Document pom) {
        for (Element plugin : elements(pom.getDocumentElement(), "plugin")) {
            if ("maven-failsafe-plugin".equals(text(plugin, "artifactId"))
                    && plugin.getParentNode().getParentNode().getNodeName().equals("build")) {
                return children(child(plugin, "executions"));
            }
        }
        throw new AssertionError("no maven-failsafe-plugin in " + POM);
    }

    private static Map<String, String> properties(Document pom) {
        Map<String, String> properties = new HashMap<>();
        Element element = child(pom.getDocumentElement(), "properties");
        if (element != null) {
            for (Element property : children(element)) {
                properties.put(property.getTagName(), property.getTextContent().trim());
            }
        }
        return properties;
    }

    private static List<String> values(Element parent, String name) {
        Element list = child(parent, name);
        return list == null
                ? List.of()
                : children(list).stream().map(e -> e.getTextContent().trim()).collect(Collectors.toList());
    }

    private static Document parse(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    private static String text(Element parent, String name) {
        return Optional.ofNullable(child(parent, name))
                .map(e -> e.getTextContent().trim())
                .orElse(null);
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        return children(parent).stream()
                .filter(e -> e.getTagName().equals(name))
                .findFirst()
                .orElse(null);
    }

    private static List<Element> children(Element parent) {
        List<Element> children = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element) {
                children.add(element);
            }
        }
        return children;
    }

    private static List<Element> elements(Element root, String name) {
        List<Element> found = new ArrayList<>();
        var nodes = root.getElementsByTagName(name);
        for (int i = 0; i < nodes.getLength(); i++) {
            found.add((Element) nodes.item(i));
        }
        return found;
    }
}
