package dev.idempotency.dialect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotency.dialect.SqlDialect.Failure;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** SQLite's errors, read by the extended result code of the driver's own exceptions; its claim's shape. */
class SqliteDialectTest {
    private final SqlDialect sqlite = Engine.dialectNamed("sqlite");

    @Test
    void aBusySnapshotIsAConflictWhileEveryOtherBusyIsAWaitThatRanOut() {
        assertEquals(Failure.TRANSACTION_CONFLICT, sqlite.classify(driver(SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT)));
        assertEquals(Failure.WAIT_TIMEOUT, sqlite.classify(driver(SQLiteErrorCode.SQLITE_BUSY)));
        assertEquals(Failure.WAIT_TIMEOUT, sqlite.classify(driver(SQLiteErrorCode.SQLITE_BUSY_RECOVERY)));
        assertEquals(Failure.WAIT_TIMEOUT, sqlite.classify(driver(SQLiteErrorCode.SQLITE_BUSY_TIMEOUT)));
    }

    @Test
    void aPrimaryKeyOrUniqueViolationIsADuplicateButNoOtherConstraint() {
        assertEquals(Failure.DUPLICATE_KEY, sqlite.classify(driver(SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY)));
        assertEquals(Failure.DUPLICATE_KEY, sqlite.classify(driver(SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE)));
        assertEquals(Failure.OTHER, sqlite.classify(driver(SQLiteErrorCode.SQLITE_CONSTRAINT_NOTNULL)));
        assertEquals(Failure.OTHER, sqlite.classify(driver(SQLiteErrorCode.SQLITE_CONSTRAINT_CHECK)));
        assertEquals(Failure.OTHER, sqlite.classify(driver(SQLiteErrorCode.SQLITE_LOCKED)));
    }

    @Test
    void readsTheExtendedCodeOfTheDriversExceptionEvenWrappedAndThePrimaryCodeOfAnyOther() {
        assertEquals(517, SqliteDialect.resultCode(driver(SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT)));
        assertEquals(5, SqliteDialect.resultCode(new SQLException("busy", null, 5)));
        assertEquals(
                Failure.TRANSACTION_CONFLICT,
                sqlite.classify(new RuntimeException(driver(SQLiteErrorCode.SQLITE_BUSY_SNAPSHOT))));
    }

    @Test
    void claimsWithOnConflictDoNothingNotInsertOrIgnore() {
        String claim = sqlite.claimStatement().toString();
        assertTrue(claim.contains("ON CONFLICT (scope, operation, request_key) DO NOTHING"), claim);
        assertTrue(!claim.contains("OR IGNORE"), claim);
    }

    private static SQLiteException driver(SQLiteErrorCode code) {
        return new SQLiteException(code.message, code);
    }
}
