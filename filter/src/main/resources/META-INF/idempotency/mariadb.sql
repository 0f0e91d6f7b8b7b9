-- The idempotency tables for MariaDB 10.11 and later (InnoDB); see docs/engines.md.
-- Key columns use utf8mb4_nopad_bin: binary and NO PAD, so 'Key', 'key' and 'key ' are three keys. The default
-- _ci collations would make them one, and PAD SPACE collations would ignore the trailing space.
-- Three VARCHAR(255) utf8mb4 columns (3060 bytes) fit InnoDB's 3072-byte index key limit.
-- Times are UTC in DATETIME(6), written with UTC_TIMESTAMP(6): TIMESTAMP would end in 2038 and follow the
-- session's time zone.

-- request_result: one idempotency record per (scope, operation, request_key).
CREATE TABLE IF NOT EXISTS request_result (
    scope            VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    operation        VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    request_key      VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    request          LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin       NOT NULL,
    response_status  INT,
    response_headers LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    response_body    LONGBLOB,
    created_at       DATETIME(6)  NOT NULL,
    expires_at       DATETIME(6)  NOT NULL,
    CONSTRAINT request_result_pkey PRIMARY KEY (scope, operation, request_key),
    CONSTRAINT request_result_key_not_empty CHECK (request_key <> ''),
    INDEX request_result_expires_at (expires_at)
) ENGINE = InnoDB;

-- idempotency_rollout: the rollout mode of each operation, shared by every node.
CREATE TABLE IF NOT EXISTS idempotency_rollout (
    operation  VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin PRIMARY KEY,
    mode       VARCHAR(16)  NOT NULL CHECK (mode IN ('OFF', 'OPTIONAL', 'REQUIRED', 'DRAIN')),
    changed_by VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    changed_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB;
-- Every change, for audit.
CREATE TABLE IF NOT EXISTS idempotency_rollout_history (
    id         BIGINT AUTO_INCREMENT PRIMARY KEY,
    operation  VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    mode       VARCHAR(16)  NOT NULL,
    changed_by VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
    changed_at DATETIME(6)  NOT NULL
) ENGINE = InnoDB;

-- processed_message: the idempotent consumer, one row per (subscriber, message id) applied.
CREATE TABLE IF NOT EXISTS processed_message (
    subscriber   VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    message_id   VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    payload      LONGTEXT     CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    local_object VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
    processed_at DATETIME(6)  NOT NULL,
    CONSTRAINT processed_message_pkey PRIMARY KEY (subscriber, message_id),
    CONSTRAINT processed_message_id_not_empty CHECK (message_id <> ''),
    INDEX processed_message_processed_at (processed_at)
) ENGINE = InnoDB;

-- idempotency_counter: each node's outcome and keyless counts, added up here every counter-flush-interval, so
-- the numbers are summed over every node and survive restarts. principal and user_agent are '' for outcomes.
-- Four VARCHAR(191) utf8mb4 columns (3056 bytes) fit the 3072-byte index limit.
CREATE TABLE IF NOT EXISTS idempotency_counter (
    operation  VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    counter    VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    principal  VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    user_agent VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    count      BIGINT       NOT NULL,
    updated_at DATETIME(6)  NOT NULL,
    CONSTRAINT idempotency_counter_pkey PRIMARY KEY (operation, counter, principal, user_agent)
) ENGINE = InnoDB;

-- idempotency_keyless_day: keyless requests per operation, client (principal and User-Agent family) and UTC day,
-- with the probable duplicates among them (a client's retry marker, or the same request again within
-- keyless-duplicate-window), added up here by every node every counter-flush-interval and trimmed by the purge past
-- keyless-history-days. utc_day is the ISO date (YYYY-MM-DD), so a text comparison orders it; first_seen and
-- last_seen are seconds since the epoch, in the same portable type on every engine.
-- Three VARCHAR(191) utf8mb4 columns and the day (2332 bytes) fit the 3072-byte index limit.
CREATE TABLE IF NOT EXISTS idempotency_keyless_day (
    operation  VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    principal  VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    user_agent VARCHAR(191) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin NOT NULL,
    utc_day    VARCHAR(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin  NOT NULL,
    requests   BIGINT                                                       NOT NULL,
    duplicates BIGINT                                                       NOT NULL,
    first_seen BIGINT                                                       NOT NULL,
    last_seen  BIGINT                                                       NOT NULL,
    CONSTRAINT idempotency_keyless_day_pkey PRIMARY KEY (operation, principal, user_agent, utc_day)
) ENGINE = InnoDB;
