-- The sample's own table on SQLite, for the end-to-end tests per engine.
CREATE TABLE IF NOT EXISTS account (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    owner   TEXT    NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0)
);
