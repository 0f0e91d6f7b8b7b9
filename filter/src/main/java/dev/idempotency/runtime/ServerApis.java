package dev.idempotency.runtime;

import dev.idempotency.ConfigurationException;

/**
 * The server APIs the filter cannot work without, asked for by name on the application's class loader before any
 * class of the filter that uses them is loaded, so that a missing one fails the deployment with a message naming
 * what to add (a {@code NoClassDefFoundError} would reach only the server's FFDC files, as on Open Liberty). The
 * Servlet API needs no check: without it this class could not have been reached. Optional APIs are asked for by
 * the classes that use them ({@link ManagedScheduler}, {@link MicroProfileSettings}, {@code ServerMetrics}).
 *
 * <p>Stateless.
 */
final class ServerApis {
    static final String USER_TRANSACTION = "jakarta.transaction.UserTransaction";

    private ServerApis() {}

    /** @throws ConfigurationException if the application cannot see Jakarta Transactions */
    static void requireTransactions(ClassLoader application) {
        if (!visible(USER_TRANSACTION, application)) {
            throw new ConfigurationException("the application cannot see Jakarta Transactions (" + USER_TRANSACTION
                    + "), which the filter needs to share the application's transaction; enable it on the server"
                    + " (on Open Liberty, jdbc-4.3, which the datasource needs anyway, or persistence-3.1 brings it)");
        }
    }

    /** Whether the class is visible to the application, without initializing it. */
    static boolean visible(String className, ClassLoader application) {
        try {
            Class.forName(className, false, application);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
