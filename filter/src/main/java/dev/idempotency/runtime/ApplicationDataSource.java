package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import jakarta.servlet.ServletContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Finds the JTA datasource the application writes with, so that the records join the application's
 * transactions on the application's own connection, without any change to its {@code persistence.xml} or
 * {@code web.xml}. The {@code datasource} setting names it directly; otherwise it is the {@code
 * jta-data-source} of the WAR's JTA persistence unit (the one named by {@code persistence-unit} when there are
 * several), or the container's default datasource for a unit that names none (Jakarta Persistence 3.1,
 * section 8.2.1.5).
 *
 * <p>Only the WAR's own units are read: {@code WEB-INF/classes/META-INF/persistence.xml} and those in {@code
 * WEB-INF/lib} jars. Used once at start-up; not thread-safe.
 */
final class ApplicationDataSource {
    static final String DEFAULT_DATA_SOURCE = "java:comp/DefaultDataSource";
    private static final String PERSISTENCE_XML = "META-INF/persistence.xml";

    /** One persistence unit as declared; {@code jtaDataSource} is null when the unit names none. */
    record Unit(String name, boolean jta, String jtaDataSource, String declaredIn) {}

    /** The datasource found and a phrase saying where its name came from, for the start-up log. */
    record Found(DataSource dataSource, String jndiName, String origin) {}

    private ApplicationDataSource() {}

    /** @throws ConfigurationException saying what to set when no single datasource can be chosen */
    static Found find(IdempotencyConfig config, ServletContext servletContext) {
        if (config.dataSource().isPresent()) {
            return lookup(config.dataSource().get(), "the datasource setting");
        }
        Unit unit = choose(units(servletContext), config.persistenceUnit());
        String jndiName = unit.jtaDataSource() == null ? DEFAULT_DATA_SOURCE : unit.jtaDataSource();
        return lookup(jndiName, "the JTA datasource of persistence unit '" + unit.name() + "' in " + unit.declaredIn());
    }

    /** The unit whose datasource the records share: the named one, or the only JTA unit. */
    static Unit choose(List<Unit> units, Optional<String> wanted) {
        List<String> jtaNames = units.stream().filter(Unit::jta).map(Unit::name).toList();
        if (wanted.isPresent()) {
            Unit named = units.stream()
                    .filter(unit -> unit.name().equals(wanted.get()))
                    .findFirst()
                    .orElseThrow(() -> new ConfigurationException("persistence-unit: the WAR has no unit named '"
                            + wanted.get() + "'; its JTA units are " + jtaNames));
            if (!named.jta()) {
                throw new ConfigurationException("persistence-unit: '" + named.name() + "' is RESOURCE_LOCAL, so the"
                        + " records could not join its transactions; name a JTA unit, one of " + jtaNames);
            }
            return named;
        }
        List<Unit> jtaUnits = units.stream().filter(Unit::jta).toList();
        if (jtaUnits.isEmpty()) {
            throw new ConfigurationException("the WAR declares no JTA persistence unit, so the datasource the"
                    + " application writes with is unknown; set datasource to its JNDI name");
        }
        if (jtaUnits.size() > 1) {
            throw new ConfigurationException("the WAR declares several JTA persistence units " + jtaNames
                    + "; set persistence-unit to the one whose transactions the records must join");
        }
        return jtaUnits.get(0);
    }

    private static List<Unit> units(ServletContext servletContext) {
        List<Unit> units = new ArrayList<>();
        String classes = "/WEB-INF/classes/" + PERSISTENCE_XML;
        try (InputStream in = servletContext.getResourceAsStream(classes)) {
            if (in != null) {
                units.addAll(parse(in, classes));
            }
        } catch (IOException e) {
            throw new ConfigurationException("could not read " + classes + ": " + e);
        }
        // Units in WEB-INF/lib jars, found through the class loader's index rather than by opening every jar.
        try {
            for (URL url : Collections.list(servletContext.getClassLoader().getResources(PERSISTENCE_XML))) {
                if (url.toString().contains("/WEB-INF/lib/")) {
                    try (InputStream in = url.openStream()) {
                        units.addAll(parse(in, url.toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new ConfigurationException("could not read the persistence units in WEB-INF/lib: " + e);
        }
        return units;
    }

    /** Reads the units of one persistence.xml; the JTA transaction type is the default in a container. */
    static List<Unit> parse(InputStream xml, String declaredIn) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            NodeList elements = factory.newDocumentBuilder().parse(xml).getElementsByTagNameNS("*", "persistence-unit");
            List<Unit> units = new ArrayList<>();
            for (int i = 0; i < elements.getLength(); i++) {
                Element unit = (Element) elements.item(i);
                NodeList dataSource = unit.getElementsByTagNameNS("*", "jta-data-source");
                String jndiName = dataSource.getLength() == 0
                        ? null
                        : dataSource.item(0).getTextContent().trim();
                units.add(new Unit(
                        unit.getAttribute("name"),
                        !unit.getAttribute("transaction-type").equals("RESOURCE_LOCAL"),
                        jndiName == null || jndiName.isEmpty() ? null : jndiName,
                        declaredIn));
            }
            return units;
        } catch (Exception e) {
            throw new ConfigurationException("could not parse " + declaredIn + ": " + e.getMessage());
        }
    }

    private static Found lookup(String jndiName, String origin) {
        try {
            Object found = new InitialContext().lookup(jndiName);
            if (found instanceof DataSource dataSource) {
                return new Found(dataSource, jndiName, origin);
            }
            throw new ConfigurationException("'" + jndiName + "' (" + origin + ") is a "
                    + found.getClass().getName() + ", not a DataSource; set datasource to the JNDI name of the"
                    + " application's JTA datasource");
        } catch (NamingException e) {
            throw new ConfigurationException("no datasource at '" + jndiName + "' (" + origin
                    + "); set datasource to the JNDI name of the application's JTA datasource");
        }
    }
}
