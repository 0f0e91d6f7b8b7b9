package dev.idempotency.check;

import dev.idempotency.dialect.Engine;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.tx.LocalTransactions;

/**
 * SQLite in a file, with the driver's defaults (deferred transactions, a busy timeout of three seconds). A file
 * has no schemas, so the filter's tables are made in it from the jar's DDL and checked there, as a user runs the
 * check with {@code --schema main}.
 */
class SqliteStoreContractTest extends StoreContractTest {
    private final EngineConfig engine = SqliteConfig.newFile();

    @Override
    EngineConfig engine() {
        return engine;
    }

    @Override
    String schema() throws Exception {
        new FilterSchema(
                        new LocalTransactions(engine::connect, null, null), Engine.dialectNamed("sqlite"), engine.url())
                .createMissing();
        return "main";
    }
}
