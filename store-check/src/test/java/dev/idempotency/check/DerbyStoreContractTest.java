package dev.idempotency.check;

import java.time.Duration;

/**
 * Apache Derby 10.16 through its network server and client driver, with a lock wait timeout of ten seconds, the
 * contract's own wait bound: Derby's timeout, not the claim's query timeout, bounds a duplicate's wait, so it
 * must outlast the winners the waiting checks hold (2.5 s), and a duplicate of a held claim is refused only when
 * it ends, well inside the 60 s a check holds its winner.
 */
class DerbyStoreContractTest extends StoreContractTest {
    private final EngineConfig engine = DerbyConfig.startedOnAnyPort(Duration.ofSeconds(10));

    @Override
    EngineConfig engine() {
        return engine;
    }
}
