package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.ConfigurationException;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;

/** The server APIs the filter cannot do without, asked for by name before any class that uses them loads. */
class ServerApisTest {
    /** An application that sees the JDK only, as one on a server without the API would. */
    private static final ClassLoader JDK_ONLY = new URLClassLoader(new URL[0], null);

    @Test
    void withoutJakartaTransactionsTheRefusalNamesWhatToEnable() {
        ConfigurationException refusal =
                assertThrows(ConfigurationException.class, () -> ServerApis.requireTransactions(JDK_ONLY));

        assertTrue(refusal.getMessage().contains("cannot see Jakarta Transactions"), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("jdbc-4.3"), refusal.getMessage());
    }

    @Test
    void withJakartaTransactionsNothingIsSaid() {
        assertDoesNotThrow(() -> ServerApis.requireTransactions(getClass().getClassLoader()));
    }

    @Test
    void anOptionalApiIsAskedForWithoutLoadingIt() {
        assertTrue(ServerApis.visible(
                MicroProfileSettings.CONFIG_PROVIDER, getClass().getClassLoader()));
        assertTrue(!ServerApis.visible(MicroProfileSettings.CONFIG_PROVIDER, JDK_ONLY));
    }
}
