package dev.idempotency.check;

class H2StoreContractTest extends StoreContractTest {
    @Override
    String url() throws Exception {
        return Databases.h2Url();
    }

    @Override
    String user() {
        return "sa";
    }

    @Override
    String password() {
        return "";
    }
}
