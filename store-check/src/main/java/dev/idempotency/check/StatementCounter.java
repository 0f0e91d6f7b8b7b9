package dev.idempotency.check;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * Counts the statements a store runs, for the checks of what a request costs: a datasource whose connections
 * count every execution of a prepared statement made on them, on the thread that is counting. Statements the
 * check runs itself, and those of other threads, are not counted.
 *
 * <p>Thread-safe: each thread counts its own.
 */
final class StatementCounter {
    private final ThreadLocal<int[]> executions = new ThreadLocal<>();

    /** {@code dataSource}, its prepared statements counted. */
    DataSource counting(DataSource dataSource) {
        return proxy(
                DataSource.class,
                dataSource,
                (method, call) -> method.getName().equals("getConnection")
                        ? proxy(Connection.class, (Connection) call.result(), this::countingStatements)
                        : call.result());
    }

    /** Runs {@code work} on this thread and returns how many statements it executed. */
    int during(Callable<?> work) throws Exception {
        int[] count = new int[1];
        executions.set(count);
        try {
            work.call();
            return count[0];
        } finally {
            executions.remove();
        }
    }

    private Object countingStatements(Method method, Call call) throws Throwable {
        return method.getName().equals("prepareStatement")
                ? proxy(PreparedStatement.class, (PreparedStatement) call.result(), this::countingExecution)
                : call.result();
    }

    /** Counted before it runs: a statement that fails went to the database all the same. */
    private Object countingExecution(Method method, Call call) throws Throwable {
        int[] count = executions.get();
        if (count != null && method.getName().startsWith("execute")) {
            count[0]++;
        }
        return call.result();
    }

    /** The call on the proxied object. */
    @FunctionalInterface
    private interface Call {
        Object result() throws Throwable;
    }

    /** What a proxy does with a call: at least make it, and return its result or something in its place. */
    @FunctionalInterface
    private interface Handling {
        Object handle(Method method, Call call) throws Throwable;
    }

    private static <T> T proxy(Class<T> type, T target, Handling handling) {
        InvocationHandler handler = (self, method, arguments) -> handling.handle(method, () -> {
            try {
                return method.invoke(target, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
    }
}
