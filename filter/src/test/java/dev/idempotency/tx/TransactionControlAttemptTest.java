package dev.idempotency.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ServletException;
import jakarta.transaction.NotSupportedException;
import java.sql.SQLException;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TransactionControlAttemptTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "IJ031019: You cannot commit during a managed transaction",
                "IJ031021: You cannot set autocommit during a managed transaction",
                "DSRA9350E: Operation Connection.commit is not allowed during a global transaction.",
                "Transaction control methods setAutoCommit(true), commit, rollback and setSavePoint not allowed"
                        + " while an XA transaction is active.",
                "WTRN0017W: Unable to begin a nested transaction. Nested transactions are not supported."
            })
    void recognizesContainersRefusalsWrappedAsLegacyServletsWrapThem(String message) {
        ServletException thrown = new ServletException("transfer failed", new SQLException(message));

        Optional<String> refusal = TransactionControlAttempt.in(thrown);

        assertTrue(refusal.isPresent());
        assertTrue(refusal.get().contains(message), refusal.get());
    }

    @Test
    void recognizesANestedBeginByItsJtaException() {
        RuntimeException thrown = new RuntimeException(
                new NotSupportedException("ARJUNA016051: thread is already" + " associated with a transaction!"));

        assertTrue(TransactionControlAttempt.in(thrown).orElseThrow().contains("ARJUNA016051"));
    }

    @Test
    void ignoresOrdinaryFailures() {
        ServletException thrown = new ServletException(
                new SQLException("duplicate key value violates unique constraint \"orders_pkey\"", "23505"));

        assertEquals(Optional.empty(), TransactionControlAttempt.in(thrown));
        assertEquals(Optional.empty(), TransactionControlAttempt.in(new IllegalStateException((String) null)));
    }
}
