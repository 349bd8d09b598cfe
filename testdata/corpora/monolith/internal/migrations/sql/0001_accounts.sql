CREATE TABLE IF NOT EXISTS accounts (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE,
    display_name text NOT NULL DEFAULT '',
    locale text NOT NULL DEFAULT 'en-GB',
    tier text NOT NULL DEFAULT 'standard',
    updated_at timestamptz NOT NULL DEFAULT now(),
    closed_at timestamptz,
    close_reason text
);
CREATE TABLE IF NOT EXISTS sessions (
    id text PRIMARY KEY,
    account_id text NOT NULL REFERENCES accounts(id),
    user_agent text NOT NULL DEFAULT '',
    ip inet,
    last_seen timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS contacts (
    account_id text NOT NULL REFERENCES accounts(id),
    email text NOT NULL,
    name text NOT NULL DEFAULT '',
    PRIMARY KEY (account_id, email)
);
