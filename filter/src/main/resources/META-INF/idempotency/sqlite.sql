-- The idempotency tables for SQLite 3.42 or later (see docs/engines.md).
-- TEXT compares byte by byte in SQLite (the BINARY collation): 'Key', 'key' and 'key ' are three keys.
-- SQLite has no timestamp type: every time is an INTEGER of milliseconds since the epoch, UTC, which is also
-- what the JDBC driver writes for a java.sql.Timestamp. STRICT tables refuse a value of the wrong type instead
-- of storing it as it came.

-- request_result: one idempotency record per (scope, operation, request_key).
CREATE TABLE IF NOT EXISTS request_result (
    scope            TEXT    NOT NULL,
    operation        TEXT    NOT NULL,
    request_key      TEXT    NOT NULL,
    request          TEXT    NOT NULL,
    response_status  INTEGER,
    response_headers TEXT,
    response_body    BLOB,
    created_at       INTEGER NOT NULL,
    expires_at       INTEGER NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key),
    CONSTRAINT request_result_key_not_empty CHECK (request_key <> '')
) STRICT;
CREATE INDEX IF NOT EXISTS request_result_expires_at ON request_result (expires_at);

-- idempotency_rollout: the rollout mode of each operation, shared by every node.
CREATE TABLE IF NOT EXISTS idempotency_rollout (
    operation  TEXT    NOT NULL PRIMARY KEY,
    mode       TEXT    NOT NULL CHECK (mode IN ('OFF', 'OPTIONAL', 'REQUIRED', 'DRAIN')),
    changed_by TEXT    NOT NULL,
    changed_at INTEGER NOT NULL
) STRICT;
-- Every change, for audit.
CREATE TABLE IF NOT EXISTS idempotency_rollout_history (
    id         INTEGER PRIMARY KEY,
    operation  TEXT    NOT NULL,
    mode       TEXT    NOT NULL,
    changed_by TEXT    NOT NULL,
    changed_at INTEGER NOT NULL
) STRICT;

-- processed_message: the idempotent consumer, one row per (subscriber, message id) applied.
CREATE TABLE IF NOT EXISTS processed_message (
    subscriber   TEXT    NOT NULL,
    message_id   TEXT    NOT NULL,
    payload      TEXT,
    local_object TEXT,
    processed_at INTEGER NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY (subscriber, message_id),
    CONSTRAINT processed_message_id_not_empty CHECK (message_id <> '')
) STRICT;
CREATE INDEX IF NOT EXISTS processed_message_processed_at ON processed_message (processed_at);

-- idempotency_counter: each node's outcome and keyless counts, added up here.
CREATE TABLE IF NOT EXISTS idempotency_counter (
    operation  TEXT    NOT NULL,
    counter    TEXT    NOT NULL,
    principal  TEXT    NOT NULL,
    user_agent TEXT    NOT NULL,
    count      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    CONSTRAINT idempotency_counter_pkey PRIMARY KEY (operation, counter, principal, user_agent)
) STRICT;

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them (a client's retry marker, or the same request again within
-- keyless-duplicate-window), added up here by every node every counter-flush-interval and trimmed by the purge past
-- keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it; first_seen and
-- last_seen are seconds since the epoch, in the same portable type on every engine.
CREATE TABLE IF NOT EXISTS idempotency_keyless_day (
    operation  TEXT    NOT NULL,
    principal  TEXT    NOT NULL,
    user_agent TEXT    NOT NULL,
    utc_day    TEXT    NOT NULL,
    requests   INTEGER NOT NULL,
    duplicates INTEGER NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen  INTEGER NOT NULL,
    CONSTRAINT idempotency_keyless_day_pkey PRIMARY KEY (operation, principal, user_agent, utc_day)
) STRICT;
