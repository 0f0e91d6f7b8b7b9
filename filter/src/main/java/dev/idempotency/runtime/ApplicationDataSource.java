package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;
import dev.idempotency.config.IdempotencyConfig;
import dev.idempotency.runtime.PersistenceUnits.Unit;
import jakarta.servlet.ServletContext;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import javax.naming.InitialContext;
import javax.naming.NamingException;
import javax.sql.DataSource;

/**
 * Finds the JTA datasource the application writes with, so that the records join the application's
 * transactions on the application's own connection, without any change to its {@code persistence.xml} or
 * {@code web.xml}. The {@code datasource} setting names it directly; otherwise it is the {@code
 * jta-data-source} of the WAR's JTA persistence unit (the one named by {@code persistence-unit} when there are
 * several), or the container's default datasource for a unit that names none (Jakarta Persistence 3.1,
 * section 8.2.1.5).
 *
 * <p>Which unit, by which rules, is {@link PersistenceUnits}' job; this class reads the units of the deployed
 * application and looks the datasource up. Only the WAR's own units are read: {@code
 * WEB-INF/classes/META-INF/persistence.xml} and those in {@code WEB-INF/lib} jars. Used once at start-up; not
 * thread-safe.
 */
final class ApplicationDataSource {
    private static final String PERSISTENCE_XML = PersistenceUnits.PERSISTENCE_XML;

    /** The datasource found and a phrase saying where its name came from, for the start-up log. */
    record Found(DataSource dataSource, String jndiName, String origin) {}

    private ApplicationDataSource() {}

    /** @throws ConfigurationException saying what to set when no single datasource can be chosen */
    static Found find(IdempotencyConfig config, ServletContext servletContext) {
        if (config.dataSource().isPresent()) {
            return lookup(config.dataSource().get(), "the datasource setting");
        }
        Unit unit = PersistenceUnits.choose(units(servletContext), config.persistenceUnit());
        return lookup(
                unit.dataSourceJndiName(),
                "the JTA datasource of persistence unit '" + unit.name() + "' in " + unit.declaredIn());
    }

    private static List<Unit> units(ServletContext servletContext) {
        List<Unit> units = new ArrayList<>();
        String classes = "/WEB-INF/classes/" + PERSISTENCE_XML;
        try (InputStream in = servletContext.getResourceAsStream(classes)) {
            if (in != null) {
                units.addAll(PersistenceUnits.parse(in, classes));
            }
        } catch (IOException e) {
            throw new ConfigurationException("could not read " + classes + ": " + e);
        }
        // Units in WEB-INF/lib jars, found through the class loader's index rather than by opening every jar.
        try {
            for (URL url : Collections.list(servletContext.getClassLoader().getResources(PERSISTENCE_XML))) {
                if (url.toString().contains("/WEB-INF/lib/")) {
                    try (InputStream in = url.openStream()) {
                        units.addAll(PersistenceUnits.parse(in, url.toString()));
                    }
                }
            }
        } catch (IOException e) {
            throw new ConfigurationException("could not read the persistence units in WEB-INF/lib: " + e);
        }
        return units;
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
