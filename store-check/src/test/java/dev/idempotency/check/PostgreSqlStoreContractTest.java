package dev.idempotency.check;

class PostgreSqlStoreContractTest extends StoreContractTest {
    private final EngineConfig engine = PostgreSqlConfig.embedded();

    @Override
    EngineConfig engine() {
        return engine;
    }
}
