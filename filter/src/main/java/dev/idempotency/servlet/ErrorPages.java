package dev.idempotency.servlet;

import jakarta.servlet.ServletContext;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Which statuses the application gives an error page of its own in {@code WEB-INF/web.xml}: an {@code
 * <error-page>} with that {@code <error-code>}, or one with neither a code nor an exception type, which serves
 * every status. The Servlet API cannot be asked, so the descriptor is read once per application.
 *
 * <p>Immutable and thread-safe.
 */
final class ErrorPages {
    private static final Logger LOG = Logger.getLogger(ErrorPages.class.getName());
    private static final String ATTRIBUTE = ErrorPages.class.getName();

    private final Set<Integer> codes;
    private final boolean forEveryStatus;

    private ErrorPages(Set<Integer> codes, boolean forEveryStatus) {
        this.codes = codes;
        this.forEveryStatus = forEveryStatus;
    }

    /** This application's error pages, read from its descriptor on first use. */
    static ErrorPages of(ServletContext context) {
        Object known = context.getAttribute(ATTRIBUTE);
        if (known instanceof ErrorPages pages) {
            return pages;
        }
        ErrorPages pages = read(context);
        context.setAttribute(ATTRIBUTE, pages);
        return pages;
    }

    /** Whether the application shows its own page for this status. */
    boolean has(int status) {
        return forEveryStatus || codes.contains(status);
    }

    private static ErrorPages read(ServletContext context) {
        Set<Integer> codes = new HashSet<>();
        boolean forEveryStatus = false;
        try (InputStream webXml = context.getResourceAsStream("/WEB-INF/web.xml")) {
            if (webXml == null) {
                return new ErrorPages(Collections.emptySet(), false);
            }
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            // A descriptor names no external entities; refusing them keeps the read from reaching out. Only Xerces
            // features: the server's own parser may be Xerces itself (WildFly 26), which knows no JAXP properties.
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            NodeList pages = factory.newDocumentBuilder().parse(webXml).getElementsByTagNameNS("*", "error-page");
            for (int i = 0; i < pages.getLength(); i++) {
                Element page = (Element) pages.item(i);
                String code = text(page, "error-code");
                if (!code.isEmpty()) {
                    codes.add(Integer.parseInt(code));
                } else if (text(page, "exception-type").isEmpty()) {
                    forEveryStatus = true;
                }
            }
        } catch (IOException | ParserConfigurationException | SAXException | RuntimeException e) {
            // The container read this descriptor already; if it cannot be read again, the built-in page serves.
            LOG.log(Level.FINE, "could not read WEB-INF/web.xml for its error pages", e);
        }
        return new ErrorPages(Collections.unmodifiableSet(codes), forEveryStatus);
    }

    private static String text(Element parent, String name) {
        NodeList found = parent.getElementsByTagNameNS("*", name);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().trim();
    }
}
