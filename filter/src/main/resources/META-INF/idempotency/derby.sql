-- The idempotency tables for Apache Derby 10.16 and later (see docs/engines.md).
-- Derby has no CREATE ... IF NOT EXISTS: with schema = create the filter runs only what is missing, and a
-- statement that finds its object made already fails and is passed over.
-- Key text compares by code point (the default UCS_BASIC collation): 'Key' and 'key' are two keys. But Derby
-- pads the shorter side with spaces before it compares, in = and in the primary key alike, so 'key' and 'key '
-- would be one: the filter refuses a key, scope or operation that ends with a space before it claims.
-- Derby has no time zones: every time is a BIGINT of milliseconds since the epoch, UTC, read from the database
-- server's clock by idempotency_now_millis() (Java's System.currentTimeMillis on the server).
CREATE FUNCTION idempotency_now_millis() RETURNS BIGINT
    LANGUAGE JAVA PARAMETER STYLE JAVA NO SQL EXTERNAL NAME 'java.lang.System.currentTimeMillis';

-- request_result: one idempotency record per (scope, operation, request_key).
CREATE TABLE request_result (
    scope            VARCHAR(1000) NOT NULL,
    operation        VARCHAR(1000) NOT NULL,
    request_key      VARCHAR(1000) NOT NULL,
    request          CLOB          NOT NULL,
    response_status  INTEGER,
    response_headers CLOB,
    response_body    BLOB,
    created_at       BIGINT        NOT NULL,
    expires_at       BIGINT        NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key),
    CONSTRAINT request_result_key_not_empty CHECK (request_key <> '')
);
CREATE INDEX request_result_expires_at ON request_result (expires_at);

-- idempotency_rollout: the rollout mode of each operation, shared by every node.
CREATE TABLE idempotency_rollout (
    operation  VARCHAR(1000) NOT NULL PRIMARY KEY,
    mode       VARCHAR(16)   NOT NULL CHECK (mode IN ('OFF', 'OPTIONAL', 'REQUIRED', 'DRAIN')),
    changed_by VARCHAR(1000) NOT NULL,
    changed_at BIGINT        NOT NULL
);
-- Every change, for audit.
CREATE TABLE idempotency_rollout_history (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operation  VARCHAR(1000) NOT NULL,
    mode       VARCHAR(16)   NOT NULL,
    changed_by VARCHAR(1000) NOT NULL,
    changed_at BIGINT        NOT NULL
);

-- processed_message: the idempotent consumer, one row per (subscriber, message id) applied.
CREATE TABLE processed_message (
    subscriber   VARCHAR(1000) NOT NULL,
    message_id   VARCHAR(1000) NOT NULL,
    payload      CLOB,
    local_object VARCHAR(1000),
    processed_at BIGINT        NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY (subscriber, message_id),
    CONSTRAINT processed_message_id_not_empty CHECK (message_id <> '')
);
CREATE INDEX processed_message_processed_at ON processed_message (processed_at);

-- idempotency_counter: each node's outcome and keyless counts, added up here every counter-flush-interval, so
-- the numbers are summed over every node and survive restarts. principal and user_agent are '' for outcomes.
CREATE TABLE idempotency_counter (
    operation  VARCHAR(1000) NOT NULL,
    counter    VARCHAR(1000) NOT NULL,
    principal  VARCHAR(1000) NOT NULL,
    user_agent VARCHAR(1000) NOT NULL,
    count      BIGINT        NOT NULL,
    updated_at BIGINT        NOT NULL,
    CONSTRAINT idempotency_counter_pkey PRIMARY KEY (operation, counter, principal, user_agent)
);

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them, added up here by every node every counter-flush-interval and trimmed
-- by the purge past keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it;
-- first_seen and last_seen are seconds since the epoch, in the same portable type on every engine.
CREATE TABLE idempotency_keyless_day (
    operation  VARCHAR(1000) NOT NULL,
    principal  VARCHAR(1000) NOT NULL,
    user_agent VARCHAR(1000) NOT NULL,
    utc_day    VARCHAR(10)   NOT NULL,
    requests   BIGINT        NOT NULL,
    duplicates BIGINT        NOT NULL,
    first_seen BIGINT        NOT NULL,
    last_seen  BIGINT        NOT NULL,
    CONSTRAINT idempotency_keyless_day_pkey PRIMARY KEY (operation, principal, user_agent, utc_day)
);
