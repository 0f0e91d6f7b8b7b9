package dev.idempotency.store;

import jakarta.persistence.Cacheable;
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
 * <p>The filter itself reads and writes records with plain JDBC through {@link RequestResultStore}, on the
 * application's JTA datasource, so it needs no persistence unit and adds nothing to the application's. This
 * entity is the mapping for applications that want to read records with JPA (reports, support tools): list
 * it in a persistence unit whose schema generation is off, because a generated table would lose the
 * byte-wise key collation and the key check. Never write records through it: a record is a promise made to
 * a client. Not cached ({@code @Cacheable(false)}): the filter's writes bypass any shared cache, which would
 * otherwise serve stale rows (EclipseLink's is on by default). Not thread-safe, like every JPA entity.
 */
@Entity
@Cacheable(false)
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
