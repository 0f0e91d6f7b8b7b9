package dev.idempotency.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.idempotency.sample.support.Api;
import dev.idempotency.sample.support.Database;
import dev.idempotency.sample.support.Duplicates;
import dev.idempotency.sample.support.PostgresExtension;
import dev.idempotency.sample.support.SampleDeployment;
import java.io.IOException;
import java.net.URL;
import java.net.http.HttpResponse;
import java.util.UUID;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.OperateOnDeployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The duplicate and mismatch scenarios under each isolation level. Above Read Committed, a duplicate that
 * waited for the winner fails with a serialization error (40001) because the winner's row is outside its
 * snapshot; the filter retries the claim in a new transaction with the same key, before anything ran.
 */
@ExtendWith(PostgresExtension.class)
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class IsolationLevelsIT {
    private static final int CLIENTS = 10;

    @Deployment(name = "read-committed", testable = false)
    static WebArchive readCommitted() throws IOException {
        return SampleDeployment.onDataSource("read-committed.war", "java:jboss/datasources/SampleDS");
    }

    @Deployment(name = "repeatable-read", testable = false)
    static WebArchive repeatableRead() throws IOException {
        return SampleDeployment.onDataSource("repeatable-read.war", "java:jboss/datasources/SampleRepeatableReadDS");
    }

    @Deployment(name = "serializable", testable = false)
    static WebArchive serializable() throws IOException {
        return SampleDeployment.onDataSource("serializable.war", "java:jboss/datasources/SampleSerializableDS");
    }

    @Test
    void readCommittedExecutesConcurrentDuplicatesOnceAndRejectsMismatch(
            @ArquillianResource @OperateOnDeployment("read-committed") URL base) throws Exception {
        assertDuplicatesExecuteOnceAndMismatchIsRejected(new Api(base));
    }

    @Test
    void repeatableReadExecutesConcurrentDuplicatesOnceAndRejectsMismatch(
            @ArquillianResource @OperateOnDeployment("repeatable-read") URL base) throws Exception {
        assertDuplicatesExecuteOnceAndMismatchIsRejected(new Api(base));
    }

    @Test
    void serializableExecutesConcurrentDuplicatesOnceAndRejectsMismatch(
            @ArquillianResource @OperateOnDeployment("serializable") URL base) throws Exception {
        assertDuplicatesExecuteOnceAndMismatchIsRejected(new Api(base));
    }

    private static void assertDuplicatesExecuteOnceAndMismatchIsRejected(Api api) throws Exception {
        long account = api.openAccount("alice", 1000);
        String key = UUID.randomUUID().toString();
        String path = "api/accounts/" + account + "/debits";
        assertEquals(1, Duplicates.debitAtOnce(CLIENTS, client -> api, account, key, "{\"balance\":900}"));

        HttpResponse<String> mismatch = api.post("alice", path, key, "{\"amount\": 101}");

        assertEquals(422, mismatch.statusCode(), mismatch.body());
        assertEquals(900, Database.balance(account));
        assertEquals(1, Database.recordCount("alice", "debit:v1", key));
    }
}
