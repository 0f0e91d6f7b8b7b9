-- The idempotency tables for H2 2.x (development setups and quickstarts; see docs/engines.md).
-- VARCHAR compares exactly in H2: 'Key', 'key' and 'key ' are three keys (no case folding, no padding).

-- request_result: one idempotency record per (scope, operation, request_key).
CREATE TABLE IF NOT EXISTS request_result (
    scope            VARCHAR(1000)            NOT NULL,
    operation        VARCHAR(1000)            NOT NULL,
    request_key      VARCHAR(1000)            NOT NULL,
    request          CHARACTER LARGE OBJECT   NOT NULL,
    response_status  INTEGER,
    response_headers CHARACTER LARGE OBJECT,
    response_body    BINARY LARGE OBJECT,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    expires_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key),
    CONSTRAINT request_result_key_not_empty CHECK (request_key <> '')
);
CREATE INDEX IF NOT EXISTS request_result_expires_at ON request_result (expires_at);

-- idempotency_rollout: the rollout mode of each operation, shared by every node.
CREATE TABLE IF NOT EXISTS idempotency_rollout (
    operation  VARCHAR(1000)            PRIMARY KEY,
    mode       VARCHAR(16)              NOT NULL CHECK (mode IN ('OFF', 'OPTIONAL', 'REQUIRED', 'DRAIN')),
    changed_by VARCHAR(1000)            NOT NULL,
    changed_at TIMESTAMP WITH TIME ZONE NOT NULL
);
-- Every change, for audit.
CREATE TABLE IF NOT EXISTS idempotency_rollout_history (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operation  VARCHAR(1000)            NOT NULL,
    mode       VARCHAR(16)              NOT NULL,
    changed_by VARCHAR(1000)            NOT NULL,
    changed_at TIMESTAMP WITH TIME ZONE NOT NULL
);

-- processed_message: the idempotent consumer, one row per (subscriber, message id) applied.
CREATE TABLE IF NOT EXISTS processed_message (
    subscriber   VARCHAR(1000)            NOT NULL,
    message_id   VARCHAR(1000)            NOT NULL,
    payload      CHARACTER LARGE OBJECT,
    local_object VARCHAR(1000),
    processed_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY (subscriber, message_id),
    CONSTRAINT processed_message_id_not_empty CHECK (message_id <> '')
);
CREATE INDEX IF NOT EXISTS processed_message_processed_at ON processed_message (processed_at);

-- idempotency_counter: each node's outcome and keyless counts, added up here every counter-flush-interval, so
-- the numbers are summed over every node and survive restarts. principal and user_agent are '' for outcomes.
CREATE TABLE IF NOT EXISTS idempotency_counter (
    operation  VARCHAR(1000)            NOT NULL,
    counter    VARCHAR(1000)            NOT NULL,
    principal  VARCHAR(1000)            NOT NULL,
    user_agent VARCHAR(1000)            NOT NULL,
    count      BIGINT                   NOT NULL,
    updated_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT idempotency_counter_pkey PRIMARY KEY (operation, counter, principal, user_agent)
);

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them (a client's retry marker, or the same request again within
-- keyless-duplicate-window), added up here by every node every counter-flush-interval and trimmed by the purge past
-- keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it; first_seen and
-- last_seen are seconds since the epoch, in the same portable type on every engine.
CREATE TABLE IF NOT EXISTS idempotency_keyless_day (
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
