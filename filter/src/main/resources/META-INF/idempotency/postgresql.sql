-- request_result: one idempotency record per (scope, operation, request_key).
-- Written by the idempotency filter in the same transaction as the application's own work.
-- COLLATE "C" makes key text compare byte by byte: 'Key' and 'key' are different keys in every locale.
CREATE TABLE IF NOT EXISTS request_result (
    scope            text COLLATE "C" NOT NULL,
    operation        text COLLATE "C" NOT NULL,
    request_key      text COLLATE "C" NOT NULL,
    request          text             NOT NULL,
    response_status  integer,
    response_headers text,
    response_body    bytea,
    created_at       timestamptz      NOT NULL,
    expires_at       timestamptz      NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key),
    CONSTRAINT request_result_key_not_empty CHECK (request_key <> '')
)
-- Every record is inserted by the claim and updated once by the completion, in the same transaction. Free
-- space on each page lets that update stay on the page (a HOT update), so the primary key index is not
-- written a second time.
WITH (fillfactor = 70);
CREATE INDEX IF NOT EXISTS request_result_expires_at ON request_result (expires_at);

-- idempotency_rollout: the rollout mode of each operation (OFF, OPTIONAL, REQUIRED, DRAIN), shared by every
-- node. An operation without a row uses the filter's rollout-mode setting.
CREATE TABLE IF NOT EXISTS idempotency_rollout (
    operation  text COLLATE "C" PRIMARY KEY,
    mode       text             NOT NULL CHECK (mode IN ('OFF', 'OPTIONAL', 'REQUIRED', 'DRAIN')),
    changed_by text             NOT NULL,
    changed_at timestamptz      NOT NULL
);
-- Every change, for audit: who switched which operation to which mode, and when.
CREATE TABLE IF NOT EXISTS idempotency_rollout_history (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operation  text COLLATE "C" NOT NULL,
    mode       text             NOT NULL,
    changed_by text             NOT NULL,
    changed_at timestamptz      NOT NULL
);

-- processed_message: the idempotent consumer. One row per (subscriber, message id) that a subscriber has
-- applied, written in the same transaction as the effect. The subscriber is part of the identity because
-- independent projections must each apply a message. The message id names an event outside this
-- database: there is deliberately no foreign key to any broker table.
CREATE TABLE IF NOT EXISTS processed_message (
    subscriber   text COLLATE "C" NOT NULL,
    message_id   text COLLATE "C" NOT NULL,
    payload      text,
    local_object text,
    processed_at timestamptz      NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY (subscriber, message_id),
    CONSTRAINT processed_message_id_not_empty CHECK (message_id <> '')
);
CREATE INDEX IF NOT EXISTS processed_message_processed_at ON processed_message (processed_at);

-- idempotency_counter: each node's outcome and keyless counts, added up here every counter-flush-interval, so
-- the numbers are summed over every node and survive restarts. One row per (operation, counter, client);
-- principal and user_agent are '' for the outcome counters.
CREATE TABLE IF NOT EXISTS idempotency_counter (
    operation  text COLLATE "C" NOT NULL,
    counter    text COLLATE "C" NOT NULL,
    principal  text COLLATE "C" NOT NULL,
    user_agent text COLLATE "C" NOT NULL,
    count      bigint           NOT NULL,
    updated_at timestamptz      NOT NULL,
    CONSTRAINT idempotency_counter_pkey PRIMARY KEY (operation, counter, principal, user_agent)
);

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them (a client's retry marker, or the same request again within
-- keyless-duplicate-window), added up here by every node every counter-flush-interval and trimmed by the purge past
-- keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it; first_seen and
-- last_seen are seconds since the epoch, in the same portable type on every engine.
CREATE TABLE IF NOT EXISTS idempotency_keyless_day (
    operation  text COLLATE "C" NOT NULL,
    principal  text COLLATE "C" NOT NULL,
    user_agent text COLLATE "C" NOT NULL,
    utc_day    text COLLATE "C" NOT NULL,
    requests   bigint           NOT NULL,
    duplicates bigint           NOT NULL,
    first_seen bigint           NOT NULL,
    last_seen  bigint           NOT NULL,
    CONSTRAINT idempotency_keyless_day_pkey PRIMARY KEY (operation, principal, user_agent, utc_day)
);
