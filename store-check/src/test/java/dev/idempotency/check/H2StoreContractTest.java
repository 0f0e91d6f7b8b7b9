package dev.idempotency.check;

class H2StoreContractTest extends StoreContractTest {
    private final EngineConfig engine = H2Config.inMemory();

    @Override
    EngineConfig engine() {
        return engine;
    }
}
