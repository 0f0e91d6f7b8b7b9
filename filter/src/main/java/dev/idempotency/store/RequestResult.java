package dev.idempotency.store;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.time.Instant;

/**
 * One idempotency record: the normalized request and the final response of one execution, stored in
 * the same transaction as the application's own effect. Mapped to the {@code request_result} table
 * (DDL in {@code META-INF/idempotency/postgresql.sql}).
 *
 * <p>The filter writes records only through {@link RequestResultStore}; this entity serves reads and
 * administration. Never offer another write path that edits stored requests: a record is a promise made
 * to a client. Not thread-safe, like every JPA entity.
 */
@Entity
@Table(name = "request_result")
@IdClass(RequestResultId.class)
public class RequestResult {
    @Id
    @Column(name = "scope", nullable = false, updatable = false)
    private String scope;

    @Id
    @Column(name = "operation", nullable = false, updatable = false)
    private String operation;

    @Id
    @Column(name = "request_key", nullable = false, updatable = false)
    private String requestKey;

    @Column(name = "request", nullable = false, updatable = false)
    private String request;

    @Column(name = "response_status")
    private Integer responseStatus;

    @Column(name = "response_headers")
    private String responseHeaders;

    @Column(name = "response_body")
    private byte[] responseBody;

    @Column(name = "created_at", nullable = false, updatable = false)
    private Instant createdAt;

    @Column(name = "expires_at", nullable = false, updatable = false)
    private Instant expiresAt;

    protected RequestResult() {}

    public RequestResultId id() {
        return new RequestResultId(scope, operation, requestKey);
    }

    public String operation() {
        return operation;
    }

    /** The canonical request text this record was created for. */
    public String request() {
        return request;
    }

    /** The stored status; never null in a committed record. */
    public Integer responseStatus() {
        return responseStatus;
    }

    /** The allowlisted response headers as a JSON object of name → list of values. */
    public String responseHeaders() {
        return responseHeaders;
    }

    public byte[] responseBody() {
        return responseBody;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public Instant expiresAt() {
        return expiresAt;
    }
}
