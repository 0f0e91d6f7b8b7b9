package dev.idempotency.adopt;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * What the check needs from a WAR's {@code WEB-INF/web.xml}: whether it is metadata-complete, its servlets and
 * their mappings, the filters it declares, and whether an absolute ordering leaves out jars it does not name.
 *
 * <p>Immutable once read; thread-safe.
 *
 * @param present whether the WAR has a {@code web.xml} at all
 * @param servlets every declared servlet, in declaration order
 * @param filterClasses the class of every declared filter
 * @param excludesUnnamedJars whether an {@code <absolute-ordering>} without {@code <others/>} is present
 * @param schemaNamespace the XML namespace of its root element ({@code http://xmlns.jcp.org/xml/ns/javaee} up to
 *     Java EE 8, {@code https://jakarta.ee/xml/ns/jakartaee} from Jakarta EE 9), or {@code null}
 * @param version its {@code version} attribute (the Servlet level, such as {@code 4.0}), or {@code null}
 */
record WebXml(
        boolean present,
        boolean metadataComplete,
        List<Servlet> servlets,
        List<String> filterClasses,
        boolean excludesUnnamedJars,
        String schemaNamespace,
        String version) {
    /**
     * One servlet with its mappings.
     *
     * @param className its {@code servlet-class}, or {@code null} for a JSP file or a servlet named only
     * @param initParameters its init-params, name to value
     */
    record Servlet(String name, String className, Map<String, String> initParameters, List<String> urlPatterns) {}

    static final WebXml ABSENT = new WebXml(false, false, List.of(), List.of(), false, null, null);

    /** @throws IllegalArgumentException if the bytes are not well-formed XML, with the parser's message */
    static WebXml parse(byte[] xml) {
        Document document;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            document = factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        } catch (Exception e) {
            throw new IllegalArgumentException("WEB-INF/web.xml is not well-formed: " + e.getMessage(), e);
        }
        Element root = document.getDocumentElement();
        Map<String, List<String>> patterns = new LinkedHashMap<>();
        for (Element mapping : children(root, "servlet-mapping")) {
            List<String> urls = patterns.computeIfAbsent(
                    EeApiNames.asJakarta(text(mapping, "servlet-name").orElse("")), n -> new ArrayList<>());
            children(mapping, "url-pattern")
                    .forEach(url -> urls.add(url.getTextContent().trim()));
        }
        List<Servlet> servlets = new ArrayList<>();
        for (Element servlet : children(root, "servlet")) {
            // In the jakarta spelling, as the rest of the check reads EE names: a javax WAR's JAX-RS servlet is
            // named javax.ws.rs.core.Application, its init-param javax.ws.rs.Application.
            String name = EeApiNames.asJakarta(text(servlet, "servlet-name").orElse(""));
            Map<String, String> parameters = new LinkedHashMap<>();
            for (Element parameter : children(servlet, "init-param")) {
                parameters.put(
                        EeApiNames.asJakarta(text(parameter, "param-name").orElse("")),
                        text(parameter, "param-value").orElse(""));
            }
            servlets.add(new Servlet(
                    name,
                    EeApiNames.asJakarta(text(servlet, "servlet-class").orElse(null)),
                    Map.copyOf(parameters),
                    List.copyOf(patterns.getOrDefault(name, List.of()))));
        }
        // A mapping may name a servlet declared nowhere in web.xml: the JAX-RS Application servlet is one.
        patterns.forEach((name, urls) -> {
            if (servlets.stream().noneMatch(servlet -> servlet.name().equals(name))) {
                servlets.add(new Servlet(name, null, Map.of(), List.copyOf(urls)));
            }
        });
        List<String> filterClasses = children(root, "filter").stream()
                .map(filter -> text(filter, "filter-class").orElse(""))
                .collect(Collectors.toList());
        List<Element> orderings = children(root, "absolute-ordering");
        boolean excludesUnnamedJars =
                !orderings.isEmpty() && children(orderings.get(0), "others").isEmpty();
        return new WebXml(
                true,
                "true".equalsIgnoreCase(root.getAttribute("metadata-complete").trim()),
                List.copyOf(servlets),
                filterClasses,
                excludesUnnamedJars,
                root.getNamespaceURI(),
                root.hasAttribute("version") ? root.getAttribute("version").trim() : null);
    }

    private static List<Element> children(Element parent, String localName) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && localName.equals(element.getLocalName())) {
                found.add(element);
            }
        }
        return found;
    }

    private static Optional<String> text(Element parent, String localName) {
        List<Element> found = children(parent, localName);
        return found.isEmpty()
                ? Optional.empty()
                : Optional.of(found.get(0).getTextContent().trim());
    }
}
