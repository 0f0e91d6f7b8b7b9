package dev.idempotency.check;

import java.time.Duration;

/**
 * Apache Derby 10.16 through its network server and client driver, with a lock wait timeout of two seconds:
 * Derby's, not the claim's query timeout, bounds a duplicate's wait, and a duplicate of a held claim is refused
 * only when it ends.
 */
class DerbyStoreContractTest extends StoreContractTest {
    private final EngineConfig engine = DerbyConfig.startedOnAnyPort(Duration.ofSeconds(2));

    @Override
    EngineConfig engine() {
        return engine;
    }
}
