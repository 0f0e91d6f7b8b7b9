package dev.idempotency.check;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;

/**
 * The store contract on one real engine, without a server: every check of {@link StoreContract}, as one test
 * each, in a scratch schema made from the filter's DDL. A subclass names the engine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StoreContractTest {
    private CheckRun run;

    /** The engine under test. */
    abstract EngineConfig engine();

    /** The schema whose tables to check, or {@code null} for a scratch schema made from the filter's DDL. */
    String schema() throws Exception {
        return null;
    }

    @BeforeAll
    void scratchSchema() throws Exception {
        EngineConfig engine = engine();
        run = CheckRun.prepare(engine::connect, schema());
    }

    @AfterAll
    void dropScratchSchema() throws Exception {
        if (run != null) {
            run.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyPromiseHolds() {
        return StoreContract.checks().stream()
                .map(check -> DynamicTest.dynamicTest(check.name(), () -> {
                    CheckRun.Result result = run.run(check);
                    assertTrue(result.passed(), result.detail());
                }));
    }
}
