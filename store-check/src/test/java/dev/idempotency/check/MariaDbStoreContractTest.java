package dev.idempotency.check;

class MariaDbStoreContractTest extends StoreContractTest {
    @Override
    String url() throws Exception {
        return Databases.mariaDbUrl();
    }

    @Override
    String user() {
        return "root";
    }

    @Override
    String password() {
        return "";
    }
}
