package dev.idempotency.check;

import dev.idempotency.dialect.SqlDialect;
import dev.idempotency.store.FilterSchema;
import dev.idempotency.tx.LocalTransactions;
import java.sql.DriverManager;

/**
 * SQLite in a file, with the driver's defaults (deferred transactions, a busy timeout of three seconds). A file
 * has no schemas, so the filter's tables are made in it from the jar's DDL and checked there, as a user runs the
 * check with {@code --schema main}.
 */
class SqliteStoreContractTest extends StoreContractTest {
    private String url;

    @Override
    String url() throws Exception {
        if (url == null) {
            url = Databases.sqliteUrl();
        }
        return url;
    }

    @Override
    String user() {
        return null;
    }

    @Override
    String password() {
        return null;
    }

    @Override
    String schema() throws Exception {
        String file = url();
        new FilterSchema(
                        new LocalTransactions(() -> DriverManager.getConnection(file), null, null),
                        SqlDialect.named("sqlite"),
                        file)
                .createMissing();
        return "main";
    }
}
