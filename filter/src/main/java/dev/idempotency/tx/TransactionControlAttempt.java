package dev.idempotency.tx;

import jakarta.transaction.NotSupportedException;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Recognizes an application that tried to run its own transaction inside the filter's: a commit, rollback or
 * auto-commit change on a connection enlisted in the filter's JTA transaction, or a {@code
 * UserTransaction.begin()} while it is active. Containers refuse both, each in its own words; code written that
 * way cannot join the filter's transaction, and every keyed request to it fails until the code changes.
 *
 * <p>Stateless and thread-safe.
 */
public final class TransactionControlAttempt {
    /** Fragments of the refusals, lower case: the container's pool, its transaction manager, or the driver. */
    private static final List<String> REFUSALS = Collections.unmodifiableList(Arrays.asList(
            // IronJacamar (WildFly, JBoss EAP): "IJ031019: You cannot commit during a managed transaction", and
            // the same for rollback and setAutoCommit.
            "during a managed transaction",
            // Open Liberty and WebSphere: "DSRA9350E: Operation Connection.commit is not allowed during a global
            // transaction"; GlassFish and Payara use the same words for their pool.
            "dsra9350e",
            "not allowed during a global transaction",
            // Drivers' own XA connections (PostgreSQL: "Transaction control methods setAutoCommit(true), commit,
            // rollback and setSavePoint not allowed while an XA transaction is active.").
            "while an xa transaction is active",
            "not allowed in a global transaction",
            // Liberty's UserTransaction: "WTRN0017W: Unable to begin a nested transaction".
            "wtrn0017w",
            "nested transaction"));

    /**
     * The name of JTA's exception for a {@code begin()} on a thread that already has a transaction. Taken from the
     * class, not written as text, so that the {@code javax} build (whose class references are renamed, but not the
     * text of string constants) names {@code javax.transaction.NotSupportedException}.
     */
    private static final String NOT_SUPPORTED = NotSupportedException.class.getName();

    private TransactionControlAttempt() {}

    /**
     * The container's own message, if {@code failure} or one of its causes is the refusal of a transaction
     * control call inside the filter's transaction.
     */
    public static Optional<String> in(Throwable failure) {
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause.getClass().getName().equals(NOT_SUPPORTED) || isRefusal(cause.getMessage())) {
                return Optional.of(cause.getClass().getName() + ": " + cause.getMessage());
            }
        }
        return Optional.empty();
    }

    private static boolean isRefusal(String message) {
        if (message == null) {
            return false;
        }
        String lower = message.toLowerCase(Locale.ROOT);
        return REFUSALS.stream().anyMatch(lower::contains);
    }
}
