-- The idempotency tables for Oracle Database 23ai and later: EXPERIMENTAL, written from Oracle's SQL Language
-- Reference and not run by this project's build; check them with the store check first
-- (docs/engines.md#check-your-database). CREATE ... IF NOT EXISTS needs 23ai.
-- Key columns are VARCHAR2 without a declared collation (COLLATE BINARY needs MAX_STRING_SIZE=EXTENDED): VARCHAR2
-- compares without blank-padding, and the primary key's index byte by byte, so 'Key', 'key' and 'key ' are three
-- keys. Three VARCHAR2(255 CHAR) columns take 3060 bytes in AL32UTF8, within an 8 KB block's index key limit.
-- Oracle stores '' as NULL: NOT NULL refuses an empty key (there is no CHECK (request_key <> ''), which would
-- compare with NULL and pass).
-- Times are UTC in TIMESTAMP, written with SYS_EXTRACT_UTC(SYSTIMESTAMP). MODE is a reserved word: quoted.

-- request_result: one idempotency record per (scope, operation, request_key).
CREATE TABLE IF NOT EXISTS request_result (
    scope            VARCHAR2(255 CHAR) NOT NULL,
    operation        VARCHAR2(255 CHAR) NOT NULL,
    request_key      VARCHAR2(255 CHAR) NOT NULL,
    request          CLOB               NOT NULL,
    response_status  NUMBER(10),
    response_headers CLOB,
    response_body    BLOB,
    created_at       TIMESTAMP          NOT NULL,
    expires_at       TIMESTAMP          NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key)
);
CREATE INDEX IF NOT EXISTS request_result_expires_at ON request_result (expires_at);

-- idempotency_rollout: the rollout mode of each operation, shared by every node.
CREATE TABLE IF NOT EXISTS idempotency_rollout (
    operation  VARCHAR2(255 CHAR) PRIMARY KEY,
    "MODE"     VARCHAR2(16)       NOT NULL CHECK ("MODE" IN ('OFF', 'OPTIONAL', 'REQUIRED', 'DRAIN')),
    changed_by VARCHAR2(255 CHAR) NOT NULL,
    changed_at TIMESTAMP          NOT NULL
);
-- Every change, for audit.
CREATE TABLE IF NOT EXISTS idempotency_rollout_history (
    id         NUMBER(19) GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    operation  VARCHAR2(255 CHAR) NOT NULL,
    "MODE"     VARCHAR2(16)       NOT NULL,
    changed_by VARCHAR2(255 CHAR) NOT NULL,
    changed_at TIMESTAMP          NOT NULL
);

-- processed_message: the idempotent consumer, one row per (subscriber, message id) applied.
CREATE TABLE IF NOT EXISTS processed_message (
    subscriber   VARCHAR2(255 CHAR) NOT NULL,
    message_id   VARCHAR2(255 CHAR) NOT NULL,
    payload      CLOB,
    local_object VARCHAR2(255 CHAR),
    processed_at TIMESTAMP          NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY (subscriber, message_id)
);
CREATE INDEX IF NOT EXISTS processed_message_processed_at ON processed_message (processed_at);

-- idempotency_counter: each node's outcome and keyless counts, added up here every counter-flush-interval, so
-- the numbers are summed over every node and survive restarts. principal and user_agent are '' for outcomes,
-- which Oracle stores as NULL: so they are nullable, under a unique constraint (which takes equal NULLs in a
-- composite key as duplicates) rather than a primary key.
CREATE TABLE IF NOT EXISTS idempotency_counter (
    operation  VARCHAR2(191 CHAR) NOT NULL,
    counter    VARCHAR2(191 CHAR) NOT NULL,
    principal  VARCHAR2(191 CHAR),
    user_agent VARCHAR2(191 CHAR),
    count      NUMBER(19)         NOT NULL,
    updated_at TIMESTAMP          NOT NULL,
    CONSTRAINT idempotency_counter_key UNIQUE (operation, counter, principal, user_agent)
);

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them (a client's retry marker, or the same request again within
-- keyless-duplicate-window), added up here by every node every counter-flush-interval and trimmed by the purge past
-- keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it; first_seen and
-- last_seen are seconds since the epoch, in the same portable type on every engine.
-- The principal and family are never empty ('anonymous', 'unknown'), so Oracle's '' = NULL does not arise.
CREATE TABLE IF NOT EXISTS idempotency_keyless_day (
    operation  VARCHAR2(191 CHAR) NOT NULL,
    principal  VARCHAR2(191 CHAR) NOT NULL,
    user_agent VARCHAR2(191 CHAR) NOT NULL,
    utc_day    VARCHAR2(10 CHAR)  NOT NULL,
    requests   NUMBER(19)         NOT NULL,
    duplicates NUMBER(19)         NOT NULL,
    first_seen NUMBER(19)         NOT NULL,
    last_seen  NUMBER(19)         NOT NULL,
    CONSTRAINT idempotency_keyless_day_pkey PRIMARY KEY (operation, principal, user_agent, utc_day)
);
