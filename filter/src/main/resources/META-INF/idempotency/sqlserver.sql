-- The idempotency tables for SQL Server 2022 and later: EXPERIMENTAL, written from Microsoft's Transact-SQL
-- reference and not run by this project's build; check them with the store check first
-- (docs/engines.md#check-your-database).
-- Key columns are NVARCHAR COLLATE Latin1_General_100_BIN2: compared by code point, so 'Key' and 'key' are two keys.
-- SQL Server's = ignores trailing spaces under every collation ('key' = 'key '), so the filter refuses identities
-- that end in a space on this engine.
-- Three NVARCHAR(255) key columns take 1530 bytes: over the 900-byte limit of a clustered index key, within the
-- 1700-byte limit of a nonclustered one. So the primary keys are NONCLUSTERED, and the tables cluster on their
-- expiry time, the order in which the purge deletes.
-- Times are UTC in DATETIME2, written with SYSUTCDATETIME().
-- SQL Server has no CREATE TABLE IF NOT EXISTS: each statement checks for its object first.

-- request_result: one idempotency record per (scope, operation, request_key).
IF OBJECT_ID(N'request_result', N'U') IS NULL
CREATE TABLE request_result (
    scope            NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    operation        NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    request_key      NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    request          NVARCHAR(MAX)  NOT NULL,
    response_status  INT,
    response_headers NVARCHAR(MAX),
    response_body    VARBINARY(MAX),
    created_at       DATETIME2      NOT NULL,
    expires_at       DATETIME2      NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY NONCLUSTERED (scope, operation, request_key),
    CONSTRAINT request_result_key_not_empty CHECK (request_key <> N'')
);
-- Claims arrive in expiry order, so new rows go to the last page: OPTIMIZE_FOR_SEQUENTIAL_KEY eases that hot spot.
IF NOT EXISTS (SELECT 1 FROM sys.indexes
               WHERE name = N'request_result_expires_at' AND object_id = OBJECT_ID(N'request_result'))
CREATE CLUSTERED INDEX request_result_expires_at ON request_result (expires_at)
    WITH (OPTIMIZE_FOR_SEQUENTIAL_KEY = ON);

-- idempotency_rollout: the rollout mode of each operation, shared by every node.
IF OBJECT_ID(N'idempotency_rollout', N'U') IS NULL
CREATE TABLE idempotency_rollout (
    operation  NVARCHAR(255) COLLATE Latin1_General_100_BIN2 PRIMARY KEY,
    mode       NVARCHAR(16)  NOT NULL CHECK (mode IN (N'OFF', N'OPTIONAL', N'REQUIRED', N'DRAIN')),
    changed_by NVARCHAR(255) NOT NULL,
    changed_at DATETIME2     NOT NULL
);
-- Every change, for audit.
IF OBJECT_ID(N'idempotency_rollout_history', N'U') IS NULL
CREATE TABLE idempotency_rollout_history (
    id         BIGINT IDENTITY PRIMARY KEY,
    operation  NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    mode       NVARCHAR(16)  NOT NULL,
    changed_by NVARCHAR(255) NOT NULL,
    changed_at DATETIME2     NOT NULL
);

-- processed_message: the idempotent consumer, one row per (subscriber, message id) applied.
IF OBJECT_ID(N'processed_message', N'U') IS NULL
CREATE TABLE processed_message (
    subscriber   NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    message_id   NVARCHAR(255) COLLATE Latin1_General_100_BIN2 NOT NULL,
    payload      NVARCHAR(MAX),
    local_object NVARCHAR(255),
    processed_at DATETIME2     NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY NONCLUSTERED (subscriber, message_id),
    CONSTRAINT processed_message_id_not_empty CHECK (message_id <> N'')
);
IF NOT EXISTS (SELECT 1 FROM sys.indexes
               WHERE name = N'processed_message_processed_at' AND object_id = OBJECT_ID(N'processed_message'))
CREATE CLUSTERED INDEX processed_message_processed_at ON processed_message (processed_at)
    WITH (OPTIMIZE_FOR_SEQUENTIAL_KEY = ON);

-- idempotency_counter: each node's outcome and keyless counts, added up here every counter-flush-interval, so
-- the numbers are summed over every node and survive restarts. principal and user_agent are '' for outcomes.
-- Four NVARCHAR(191) columns (1528 bytes) fit the 1700-byte nonclustered key limit; the table stays a heap, whose
-- rows are only ever updated in place.
IF OBJECT_ID(N'idempotency_counter', N'U') IS NULL
CREATE TABLE idempotency_counter (
    operation  NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    counter    NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    principal  NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    user_agent NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    count      BIGINT        NOT NULL,
    updated_at DATETIME2     NOT NULL,
    CONSTRAINT idempotency_counter_pkey PRIMARY KEY NONCLUSTERED (operation, counter, principal, user_agent)
);

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them (a client's retry marker, or the same request again within
-- keyless-duplicate-window), added up here by every node every counter-flush-interval and trimmed by the purge past
-- keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it; first_seen and
-- last_seen are seconds since the epoch, in the same portable type on every engine.
-- Three NVARCHAR(191) columns and the day (1166 bytes) fit the 1700-byte nonclustered key limit.
IF OBJECT_ID(N'idempotency_keyless_day', N'U') IS NULL
CREATE TABLE idempotency_keyless_day (
    operation  NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    principal  NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    user_agent NVARCHAR(191) COLLATE Latin1_General_100_BIN2 NOT NULL,
    utc_day    NVARCHAR(10) COLLATE Latin1_General_100_BIN2  NOT NULL,
    requests   BIGINT                                        NOT NULL,
    duplicates BIGINT                                        NOT NULL,
    first_seen BIGINT                                        NOT NULL,
    last_seen  BIGINT                                        NOT NULL,
    CONSTRAINT idempotency_keyless_day_pkey PRIMARY KEY NONCLUSTERED (operation, principal, user_agent, utc_day)
);
