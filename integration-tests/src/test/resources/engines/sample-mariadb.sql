-- The sample's own table on MariaDB, for the end-to-end tests per engine (the sample installs its PostgreSQL one itself).
CREATE TABLE IF NOT EXISTS account (
    id      BIGINT AUTO_INCREMENT PRIMARY KEY,
    owner   VARCHAR(255) NOT NULL,
    balance BIGINT       NOT NULL CHECK (balance >= 0)
) ENGINE = InnoDB AUTO_INCREMENT = 100;
