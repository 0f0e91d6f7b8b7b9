package dev.idempotency.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.StoreException;
import dev.idempotency.dialect.Engine;
import dev.idempotency.testing.StrictProxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/** The consumer's identity checks, made before the store touches the database. */
class ProcessedMessageStoreTest {
    private final StrictProxy proxies = new StrictProxy();
    /** Fails the test on any call: a refused identity must not reach the database. */
    private final DataSource untouched = proxies.of(DataSource.class, Map.of());

    @Test
    void messageIdEndingInASpaceIsRefusedOnSqlServer() {
        ProcessedMessageStore store = new ProcessedMessageStore(untouched, Engine.dialectNamed("sqlserver"));

        for (List<String> identity : List.of(List.of("ledger", "m-1 "), List.of("ledger ", "m-1"))) {
            StoreException e = assertThrows(
                    StoreException.class,
                    () -> store.claim(identity.get(0), identity.get(1), null, "account:1", Duration.ofSeconds(1)));
            assertTrue(e.getMessage().contains("ends with a space"), e.getMessage());
        }
        assertEquals(List.of(), proxies.unexpectedCalls());
    }

    @Test
    void messageIdLongerThanTheKeyColumnsIsRefusedRatherThanCut() {
        // MariaDB's INSERT IGNORE would cut it to 255 characters, which another id could share.
        ProcessedMessageStore store = new ProcessedMessageStore(untouched, Engine.dialectNamed("mariadb"));

        StoreException e = assertThrows(
                StoreException.class,
                () -> store.claim("ledger", "m".repeat(256), null, "account:1", Duration.ofSeconds(1)));

        assertTrue(e.getMessage().contains("255 characters"), e.getMessage());
        assertEquals(List.of(), proxies.unexpectedCalls());
    }
}
