package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import dev.idempotency.runtime.PersistenceUnits.Unit;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which persistence unit's datasource the records share, read from the application's persistence.xml. */
class PersistenceUnitsTest {
    private static final String TWO_UNITS =
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <persistence xmlns="https://jakarta.ee/xml/ns/persistence" version="3.0">
              <persistence-unit name="orders">
                <jta-data-source> java:jboss/datasources/OrdersDS </jta-data-source>
                <properties>
                  <property name="jakarta.persistence.schema-generation.database.action" value="drop-and-create"/>
                </properties>
              </persistence-unit>
              <persistence-unit name="reports" transaction-type="RESOURCE_LOCAL">
                <non-jta-data-source>java:jboss/datasources/ReportsDS</non-jta-data-source>
              </persistence-unit>
              <persistence-unit name="defaults" transaction-type="JTA"/>
            </persistence>
            """;

    private static List<Unit> units(String xml) {
        return PersistenceUnits.parse(
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "persistence.xml");
    }

    @Test
    void readsNameTransactionTypeAndJtaDataSourceOfEveryUnit() {
        assertEquals(
                List.of(
                        new Unit("orders", true, "java:jboss/datasources/OrdersDS", "persistence.xml"),
                        new Unit("reports", false, null, "persistence.xml"),
                        new Unit("defaults", true, null, "persistence.xml")),
                units(TWO_UNITS));
    }

    @Test
    void choosesTheOnlyJtaUnit() {
        List<Unit> units =
                List.of(new Unit("orders", true, "java:/OrdersDS", "a"), new Unit("reports", false, null, "a"));

        assertEquals("orders", PersistenceUnits.choose(units, Optional.empty()).name());
    }

    @Test
    void refusesToGuessBetweenSeveralJtaUnitsAndSaysWhatToSet() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class, () -> PersistenceUnits.choose(units(TWO_UNITS), Optional.empty()));

        assertTrue(e.getMessage().contains("[orders, defaults]"), e.getMessage());
        assertTrue(e.getMessage().contains("set persistence-unit"), e.getMessage());
    }

    @Test
    void choosesTheNamedUnit() {
        assertEquals(
                "defaults",
                PersistenceUnits.choose(units(TWO_UNITS), Optional.of("defaults"))
                        .name());
    }

    @Test
    void refusesAResourceLocalUnitBecauseRecordsCouldNotJoinItsTransactions() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class, () -> PersistenceUnits.choose(units(TWO_UNITS), Optional.of("reports")));

        assertTrue(e.getMessage().contains("RESOURCE_LOCAL"), e.getMessage());
    }

    @Test
    void refusesAnUnknownUnitNamingTheKnownOnes() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class, () -> PersistenceUnits.choose(units(TWO_UNITS), Optional.of("billing")));

        assertTrue(e.getMessage().contains("'billing'"), e.getMessage());
        assertTrue(e.getMessage().contains("[orders, defaults]"), e.getMessage());
    }

    @Test
    void withoutAnyJtaUnitAsksForTheDatasourceSetting() {
        ConfigurationException e =
                assertThrows(ConfigurationException.class, () -> PersistenceUnits.choose(List.of(), Optional.empty()));

        assertTrue(e.getMessage().contains("set datasource"), e.getMessage());
    }

    @Test
    void aJtaUnitWithoutItsOwnDatasourceUsesTheContainersDefault() {
        List<Unit> units = units(TWO_UNITS);

        assertEquals("java:jboss/datasources/OrdersDS", units.get(0).dataSourceJndiName());
        assertEquals("java:comp/DefaultDataSource", units.get(2).dataSourceJndiName());
    }
}
