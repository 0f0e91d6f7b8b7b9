package dev.idempotency.check;

class PostgreSqlStoreContractTest extends StoreContractTest {
    @Override
    String url() throws Exception {
        return Databases.postgresUrl();
    }

    @Override
    String user() {
        return "postgres";
    }

    @Override
    String password() {
        return "postgres";
    }
}
