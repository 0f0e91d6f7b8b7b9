package dev.idempotency.check;

class MariaDbStoreContractTest extends StoreContractTest {
    private final EngineConfig engine = MariaDbConfig.startedOnAnyPort();

    @Override
    EngineConfig engine() {
        return engine;
    }
}
