package dev.idempotency.check;

/**
 * Apache Derby 10.16 through its network server and client driver, with a lock wait timeout of {@value
 * Databases#DERBY_LOCK_WAIT_SECONDS} seconds: Derby's, not the claim's query timeout, bounds a duplicate's wait.
 */
class DerbyStoreContractTest extends StoreContractTest {
    @Override
    String url() throws Exception {
        return Databases.derbyUrl();
    }

    @Override
    String user() {
        return "app";
    }

    @Override
    String password() {
        return "app";
    }
}
