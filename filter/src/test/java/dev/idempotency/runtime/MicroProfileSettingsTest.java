package dev.idempotency.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The unit tests' class path is a server like GlassFish 8: the MicroProfile Config API is visible, with no
 * implementation behind it.
 */
class MicroProfileSettingsTest {
    private final ClassLoader application = getClass().getClassLoader();

    @Test
    void theApiAloneIsVisibleHere() {
        assertTrue(ServerApis.visible(MicroProfileSettings.CONFIG_PROVIDER, application));
        assertThrows(IllegalStateException.class, () -> ConfigProvider.getConfig(application));
    }

    @Test
    void anApiWithoutAnImplementationIsNoSourceAndStopsNothing() {
        assertEquals(Collections.emptyMap(), MicroProfileSettings.read(application));
        assertFalse(MicroProfileSettings.namesOperations(application));
    }
}
