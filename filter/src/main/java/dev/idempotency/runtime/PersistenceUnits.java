package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The rules by which the filter picks the persistence unit whose datasource the records share: how a {@code
 * persistence.xml} is read, and which unit is chosen. Kept apart from the container lookups of {@link
 * ApplicationDataSource} so that the adopt command, which reads a WAR without deploying it, applies the very
 * same rules and can never disagree with the filter.
 *
 * <p>Stateless and thread-safe.
 */
public final class PersistenceUnits {
    /** The container's default datasource, used by a JTA unit that names none (Jakarta Persistence 3.1, 8.2.1.5). */
    public static final String DEFAULT_DATA_SOURCE = "java:comp/DefaultDataSource";

    /** Where a WAR's classes and its library jars declare their units. */
    public static final String PERSISTENCE_XML = "META-INF/persistence.xml";

    /**
     * One persistence unit as declared.
     *
     * @param jtaDataSource the unit's {@code jta-data-source}, or {@code null} when it names none
     * @param declaredIn where the unit is declared, for messages
     */
    public record Unit(String name, boolean jta, String jtaDataSource, String declaredIn) {
        /** The JNDI name the records would use with this unit: its own datasource, or the container's default. */
        public String dataSourceJndiName() {
            return jtaDataSource == null ? DEFAULT_DATA_SOURCE : jtaDataSource;
        }
    }

    private PersistenceUnits() {}

    /**
     * The unit whose datasource the records share: the named one, or the only JTA unit.
     *
     * @throws ConfigurationException saying what to set when no single unit can be chosen
     */
    public static Unit choose(List<Unit> units, Optional<String> wanted) {
        List<String> jtaNames = units.stream().filter(Unit::jta).map(Unit::name).collect(Collectors.toList());
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
        List<Unit> jtaUnits = units.stream().filter(Unit::jta).collect(Collectors.toList());
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

    /**
     * Reads the units of one persistence.xml; the JTA transaction type is the default in a container.
     *
     * @throws ConfigurationException if the file is not well-formed XML
     */
    public static List<Unit> parse(InputStream xml, String declaredIn) {
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
}
