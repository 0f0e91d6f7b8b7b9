package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.SqlDialect.Failure;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the Derby dialect says without a server; the store contract runs it on Derby's network server. */
class DerbyDialectTest {
    private final SqlDialect derby = Engine.dialectNamed("derby");

    @Test
    void isDetectedByTheNameDerbysDriversReportFrom10Point16() {
        assertEquals(Engine.DERBY, Engine.forProduct("Apache Derby", 10, 16).engine());
        assertEquals(Engine.DERBY, Engine.forProduct("Apache Derby", 10, 17).engine());
        assertEquals("META-INF/idempotency/derby.sql", derby.ddlResource());
        assertTrue(Engine.DERBY.tested());
    }

    @Test
    void aLockWaitPastDerbysTimeoutIsAWaitThatRanOutNotAConflict() {
        assertEquals(Failure.WAIT_TIMEOUT, derby.classify(new SQLException("lock timeout", "40XL1", 30000)));
        assertEquals(Failure.WAIT_TIMEOUT, derby.classify(new SQLException("cancelled", "XCL52", 20000)));
        assertEquals(Failure.TRANSACTION_CONFLICT, derby.classify(new SQLException("deadlock", "40001", 30000)));
        assertEquals(Failure.DUPLICATE_KEY, derby.classify(new SQLException("duplicate", "23505", 20000)));
        assertEquals(Failure.OTHER, derby.classify(new SQLException("no table", "42X05", 20000)));
    }

    @Test
    void refusesAPartThatEndsWithASpaceWhichDerbyPadsAway() {
        assertTrue(derby.refusedIdentityPart("key ").orElseThrow().contains("trailing space"));
        assertEquals(Optional.empty(), derby.refusedIdentityPart(" key"));
        assertEquals(Optional.empty(), derby.refusedIdentityPart("key\t"));
    }

    /** A prepared MERGE drops the network server's connection in 10.16.1.1, so the upserts are two statements. */
    @Test
    void upsertsWithoutMerge() {
        for (List<SqlStatement> upsert : List.of(derby.upsertRolloutStatements(), derby.addToCounterStatements())) {
            assertEquals(2, upsert.size());
            assertTrue(upsert.get(0).toString().startsWith("INSERT INTO "), upsert.toString());
            assertTrue(upsert.get(1).toString().startsWith("UPDATE "), upsert.toString());
            assertTrue(upsert.stream().noneMatch(s -> s.toString().contains("MERGE")), upsert.toString());
        }
        assertThrows(UnsupportedOperationException.class, derby::upsertRolloutStatement);
        assertThrows(UnsupportedOperationException.class, derby::addToCounterStatement);
    }

    @Test
    void theClaimIsAPlainInsertOnTheServersClock() {
        String claim = derby.claimStatement().toString();
        assertTrue(claim.startsWith("INSERT INTO request_result"), claim);
        assertTrue(claim.contains("idempotency_now_millis()"), claim);
        assertEquals(Optional.empty(), derby.claimReturningCommittedStatement(derby.claimStatement()));
    }
}
