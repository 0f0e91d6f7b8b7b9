package dev.idempotency.store;

import java.io.Serializable;
import java.util.Objects;

/**
 * The identity of a record: who asked (scope), for what (operation contract) and under which key. Equal
 * keys in different scopes or operations are independent records.
 *
 * <p>Immutable and thread-safe. Public with a no-argument constructor because JPA uses it as an {@code
 * IdClass}.
 */
public class RequestResultId implements Serializable {
    private static final long serialVersionUID = 1L;

    private String scope;
    private String operation;
    private String requestKey;

    protected RequestResultId() {}

    public RequestResultId(String scope, String operation, String requestKey) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.operation = Objects.requireNonNull(operation, "operation");
        this.requestKey = Objects.requireNonNull(requestKey, "requestKey");
    }

    public String scope() {
        return scope;
    }

    public String operation() {
        return operation;
    }

    public String requestKey() {
        return requestKey;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestResultId other
                && scope.equals(other.scope)
                && operation.equals(other.operation)
                && requestKey.equals(other.requestKey);
    }

    @Override
    public int hashCode() {
        return Objects.hash(scope, operation, requestKey);
    }

    @Override
    public String toString() {
        return "(" + scope + ", " + operation + ", " + requestKey + ")";
    }
}
